/**
 * Evaluations and their state, with the members (PR and head) they evaluate: a restart
 * re-queues what a previous process left queued or running. Only `EvaluationStates` writes the
 * state, through `compareAndSet`.
 */
import type Database from 'better-sqlite3';
import type { EvaluationState } from './evaluation-states.ts';

export interface StoredEvaluation {
  id: number;
  setKey: string;
  seed: string;
  installationId: number;
  state: EvaluationState;
  matrix: string | null;
  members: Array<{ key: string; headSha: string }>;
}

/** Columns under their `StoredEvaluation` names: a row is one but for the members' JSON. */
const COLUMNS = `id, set_key AS setKey, seed, installation_id AS installationId, state, matrix, members`;

type EvalRow = Omit<StoredEvaluation, 'members'> & { members: string };

const toEvaluation = (row: EvalRow): StoredEvaluation => ({
  ...row,
  members: JSON.parse(row.members) as StoredEvaluation['members'],
});

export class EvaluationsTable {
  constructor(private readonly db: Database.Database) {}

  create(e: { setKey: string; seed: string; installationId: number; matrix: string | null }): number {
    const now = Date.now();
    const r = this.db
      .prepare(
        `INSERT INTO evaluations (set_key, seed, installation_id, state, matrix, created_at, updated_at)
         VALUES (?, ?, ?, 'queued', ?, ?, ?)`,
      )
      .run(e.setKey, e.seed, e.installationId, e.matrix, now, now);
    return Number(r.lastInsertRowid);
  }

  /** Moves `id` from `from` to `to`; false when the row is not in `from` (someone moved it first). */
  compareAndSet(id: number, from: EvaluationState, to: EvaluationState): boolean {
    const r = this.db
      .prepare('UPDATE evaluations SET state = ?, updated_at = ? WHERE id = ? AND state = ?')
      .run(to, Date.now(), id, from);
    return r.changes === 1;
  }

  setMembers(id: number, members: StoredEvaluation['members']): void {
    this.db
      .prepare('UPDATE evaluations SET members = ?, updated_at = ? WHERE id = ?')
      .run(JSON.stringify(members), Date.now(), id);
  }

  get(id: number): StoredEvaluation | undefined {
    const row = this.db.prepare(`SELECT ${COLUMNS} FROM evaluations WHERE id = ?`).get(id) as
      | EvalRow
      | undefined;
    return row ? toEvaluation(row) : undefined;
  }

  /** Evaluations a previous process left queued or running. */
  unfinished(): StoredEvaluation[] {
    const rows = this.db
      .prepare(`SELECT ${COLUMNS} FROM evaluations WHERE state IN ('queued', 'running') ORDER BY id`)
      .all() as EvalRow[];
    return rows.map(toEvaluation);
  }
}
