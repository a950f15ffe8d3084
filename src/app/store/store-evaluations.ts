/**
 * Evaluations and their state, with the members (PR and head) they evaluate: a restart
 * re-queues what a previous process left queued or running. Only `EvaluationStates` writes the
 * state, through `compareAndSet`.
 */
import type Database from 'better-sqlite3';
import { z } from 'zod';
import { jsonColumn, rowReader } from './stored-row.ts';

/** The state names live with the table that stores them; `evaluation-states.ts` owns the moves. */
export const EVALUATION_STATES = ['queued', 'running', 'published', 'superseded', 'failed'] as const;
export type EvaluationState = (typeof EVALUATION_STATES)[number];

const evaluationSchema = z.object({
  id: z.number().int(),
  setKey: z.string(),
  seed: z.string(),
  installationId: z.number().int(),
  state: z.enum(EVALUATION_STATES),
  matrix: z.string().nullable(),
  /** `baseRef`: the branch it was evaluated onto (absent on rows an older Tandem wrote). */
  members: jsonColumn(
    z.array(z.object({ key: z.string(), headSha: z.string(), baseRef: z.string().optional() })),
  ),
});
export type StoredEvaluation = z.output<typeof evaluationSchema>;

const OUTCOMES = ['resolved', 'unresolved', 'error'] as const;

/** What a published report concluded, and the suite's merge order (producers first). */
export interface EvaluationVerdict {
  outcome: (typeof OUTCOMES)[number];
  mergeOrder: string[];
}

/** Columns under their `StoredEvaluation` names. */
const COLUMNS = `id, set_key AS setKey, seed, installation_id AS installationId, state, matrix, members`;

const evaluations = rowReader('evaluations', ['id'], evaluationSchema);
const verdicts = rowReader(
  'evaluations',
  ['id'],
  z.object({
    id: z.number().int(),
    outcome: z.enum(OUTCOMES).nullable(),
    merge_order: jsonColumn(z.array(z.string())),
  }),
);
/** A published evaluation with the result kept for a reuse. */
const publishedSchema = evaluationSchema.extend({
  fingerprint: z.string().nullable(),
  report: z.string().nullable(),
  evaluatedAt: z.number().nullable(),
});
const published = rowReader('evaluations', ['id'], publishedSchema);

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
    return evaluations.one(this.db.prepare(`SELECT ${COLUMNS} FROM evaluations WHERE id = ?`).get(id));
  }

  /** What a report concluded, and the merge order the suite gave (for `/tandem merge`). */
  setVerdict(id: number, verdict: EvaluationVerdict): void {
    this.db
      .prepare('UPDATE evaluations SET outcome = ?, merge_order = ?, updated_at = ? WHERE id = ?')
      .run(verdict.outcome, JSON.stringify(verdict.mergeOrder), Date.now(), id);
  }

  clearVerdict(id: number): void {
    this.db.prepare('UPDATE evaluations SET outcome = NULL, updated_at = ? WHERE id = ?').run(Date.now(), id);
  }

  verdict(id: number): EvaluationVerdict | undefined {
    const row = verdicts.one(
      this.db.prepare('SELECT id, outcome, merge_order FROM evaluations WHERE id = ?').get(id),
    );
    if (!row?.outcome) return undefined;
    return { outcome: row.outcome, mergeOrder: row.merge_order };
  }

  /**
   * The newest evaluation that concerns any of these PRs: as a member, or (queued, members not
   * settled yet) as its seed or set name. Superseded ones do not count: a newer one took over,
   * or the set was gone (every member closed) before it ran. A scan, but only `/tandem merge` asks.
   */
  latestCovering(keys: readonly string[]): StoredEvaluation | undefined {
    if (keys.length === 0) return undefined;
    const list = JSON.stringify(keys);
    const row = this.db
      .prepare(
        `SELECT ${COLUMNS} FROM evaluations e
         WHERE e.state != 'superseded' AND (
           e.seed IN (SELECT value FROM json_each(@list)) OR e.set_key IN (SELECT value FROM json_each(@list))
           OR EXISTS (SELECT 1 FROM json_each(e.members) m
                      WHERE json_extract(m.value, '$.key') IN (SELECT value FROM json_each(@list))))
         ORDER BY e.id DESC LIMIT 1`,
      )
      .get({ list });
    return evaluations.one(row);
  }

  /** The report an executor produced for `id`, and what it was evaluated with (`fingerprint`). */
  keepResult(id: number, result: { fingerprint: string; report: string }): void {
    const now = Date.now();
    this.db
      .prepare(
        'UPDATE evaluations SET fingerprint = ?, report = ?, evaluated_at = ?, updated_at = ? WHERE id = ?',
      )
      .run(result.fingerprint, result.report, now, now, id);
  }

  /** Marks `id` as carrying `from`'s result (a reuse): the next reuse finds it as the last one. */
  carryResult(id: number, from: number): void {
    this.db
      .prepare(
        `UPDATE evaluations SET (fingerprint, report, evaluated_at) =
           (SELECT fingerprint, report, evaluated_at FROM evaluations WHERE id = @from), updated_at = @now
         WHERE id = @id`,
      )
      .run({ id, from, now: Date.now() });
  }

  /**
   * The last published evaluation of `setKey` (the newest one, with or without a kept result): only
   * it may be reused, an older one's verdict was already replaced on GitHub.
   */
  lastPublished(setKey: string): z.output<typeof publishedSchema> | undefined {
    const row = this.db
      .prepare(
        `SELECT ${COLUMNS}, fingerprint, report, evaluated_at AS evaluatedAt FROM evaluations
         WHERE set_key = ? AND state = 'published' ORDER BY id DESC LIMIT 1`,
      )
      .get(setKey);
    return published.one(row);
  }

  /** Evaluations a previous process left queued or running. */
  unfinished(): StoredEvaluation[] {
    const rows = this.db
      .prepare(`SELECT ${COLUMNS} FROM evaluations WHERE state IN ('queued', 'running') ORDER BY id`)
      .all();
    return evaluations.many(rows);
  }
}
