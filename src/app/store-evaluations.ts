/**
 * Evaluations and their state, with the members (PR and head) they evaluate: a restart
 * re-queues what a previous process left queued or running.
 */
import type Database from 'better-sqlite3';

export type EvaluationState = 'queued' | 'running' | 'done' | 'failed' | 'cancelled';

export interface StoredEvaluation {
  id: number;
  setKey: string;
  seed: string;
  installationId: number;
  state: EvaluationState;
  matrix: string | null;
  members: Array<{ key: string; headSha: string }>;
}

const SCHEMA = `
CREATE TABLE IF NOT EXISTS evaluations (
  id INTEGER PRIMARY KEY AUTOINCREMENT, set_key TEXT NOT NULL, seed TEXT NOT NULL,
  installation_id INTEGER NOT NULL, state TEXT NOT NULL, matrix TEXT, members TEXT NOT NULL DEFAULT '[]',
  created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL);
`;

/** Columns under their `StoredEvaluation` names: a row is one but for the members' JSON. */
const COLUMNS = `id, set_key AS setKey, seed, installation_id AS installationId, state, matrix, members`;

type EvalRow = Omit<StoredEvaluation, 'members'> & { members: string };

const toEvaluation = (row: EvalRow): StoredEvaluation => ({
  ...row,
  members: JSON.parse(row.members) as StoredEvaluation['members'],
});

export class EvaluationsTable {
  constructor(private readonly db: Database.Database) {
    db.exec(SCHEMA);
  }

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

  setState(id: number, state: EvaluationState, members?: StoredEvaluation['members']): void {
    if (members) {
      this.db
        .prepare('UPDATE evaluations SET state = ?, members = ?, updated_at = ? WHERE id = ?')
        .run(state, JSON.stringify(members), Date.now(), id);
    } else {
      this.db
        .prepare('UPDATE evaluations SET state = ?, updated_at = ? WHERE id = ?')
        .run(state, Date.now(), id);
    }
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
