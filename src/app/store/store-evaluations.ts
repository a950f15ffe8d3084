/**
 * Evaluations and their state, with the members (PR and head) they evaluate: a restart
 * re-queues what a previous process left queued or running. Only `EvaluationStates` writes the
 * state, through `compareAndSet`.
 */
import { z } from 'zod';
import { jsonField, jsonObjects, jsonStrings } from './sql-dialect.ts';
import type { Driver } from './store-driver.ts';
import { flagColumn, jsonColumn, rowReader } from './stored-row.ts';

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

/** Columns under their `StoredEvaluation` names (quoted: PostgreSQL folds bare names to lower case). */
const COLUMNS = `id, set_key AS "setKey", seed, installation_id AS "installationId", state, matrix, members`;

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

const idRow = z.object({ id: z.number().int() });
const askedAt = z.object({ at: z.coerce.number() });

/** What a new evaluation row holds when it is queued. */
export interface NewEvaluation {
  setKey: string;
  seed: string;
  installationId: number;
  matrix: string | null;
  /** Run the executor even when a published result fits (`/tandem run --fresh`). */
  fresh?: boolean;
}

/** What the requests folded into a row asked for (another replica's may have asked more). */
const askedRows = rowReader(
  'evaluations',
  ['id'],
  z.object({ id: z.number().int(), matrix: z.string().nullable(), fresh: flagColumn }),
);

export class EvaluationsTable {
  constructor(private readonly db: Driver) {}

  async create(e: NewEvaluation): Promise<number> {
    const now = Date.now();
    const row = await this.db.get(
      `INSERT INTO evaluations (set_key, seed, installation_id, state, matrix, created_at, updated_at)
       VALUES (?, ?, ?, 'queued', ?, ?, ?) RETURNING id`,
      [e.setKey, e.seed, e.installationId, e.matrix, now, now],
    );
    return idRow.parse(row).id;
  }

  /**
   * The set's queued evaluation: the one waiting already (a request folds into it: `matrix`, when
   * given, replaces its matrix), or a new row. The database keeps one queued row per set
   * (`evaluations_one_queued`), so replicas asking at once get the same row (`fresh` sticks to
   * it, see `asked`); inside a transaction
   * on PostgreSQL the row found stays locked until it ends, so it cannot start running (and read
   * the PR facts) before what that transaction records is committed.
   */
  async queue(e: NewEvaluation): Promise<{ id: number; created: boolean }> {
    const lock = this.db.dialect === 'postgres' ? ' FOR UPDATE' : '';
    for (;;) {
      const waiting = await this.db.get(
        `SELECT id FROM evaluations WHERE set_key = ? AND state = 'queued'${lock}`,
        [e.setKey],
      );
      if (waiting !== undefined) {
        const id = idRow.parse(waiting).id;
        // `updated_at` of a queued row is its last request: the set's debounce across replicas.
        await this.db.run(
          `UPDATE evaluations SET matrix = COALESCE(?, matrix), fresh = CASE WHEN ? = 1 THEN 1 ELSE fresh END,
           updated_at = ? WHERE id = ?`,
          [e.matrix, e.fresh ? 1 : 0, Date.now(), id],
        );
        return { id, created: false };
      }
      const now = Date.now();
      // Another request of the set may have inserted since the read: then read its row again.
      const row = await this.db.get(
        `INSERT INTO evaluations (set_key, seed, installation_id, state, matrix, fresh, created_at, updated_at)
         VALUES (?, ?, ?, 'queued', ?, ?, ?, ?)
         ON CONFLICT (set_key) WHERE state = 'queued' DO NOTHING RETURNING id`,
        [e.setKey, e.seed, e.installationId, e.matrix, e.fresh ? 1 : 0, now, now],
      );
      if (row !== undefined) return { id: idRow.parse(row).id, created: true };
    }
  }

  /** The matrix and `--fresh` the requests folded into `id` asked for. */
  async asked(id: number): Promise<{ matrix: string | null; fresh: boolean } | undefined> {
    const row = askedRows.one(
      await this.db.get('SELECT id, matrix, fresh FROM evaluations WHERE id = ?', [id]),
    );
    return row ? { matrix: row.matrix, fresh: row.fresh } : undefined;
  }

  /**
   * When `id` was last asked for while queued (created, a request folded in, or re-queued): the
   * replica that runs it debounces from there, whichever replica the requests reached. Written
   * with each replica's clock (the delay is seconds; hosts' clocks agree far better than that).
   */
  async lastAskedAt(id: number): Promise<number | undefined> {
    const row = await this.db.get('SELECT updated_at AS "at" FROM evaluations WHERE id = ? AND state = ?', [
      id,
      'queued',
    ]);
    return row === undefined ? undefined : askedAt.parse(row).at;
  }

  /** Moves `id` from `from` to `to`; false when the row is not in `from` (someone moved it first). */
  async compareAndSet(id: number, from: EvaluationState, to: EvaluationState): Promise<boolean> {
    const r = await this.db.run(
      'UPDATE evaluations SET state = ?, updated_at = ? WHERE id = ? AND state = ?',
      [to, Date.now(), id, from],
    );
    return r.changes === 1;
  }

  async setMembers(id: number, members: StoredEvaluation['members']): Promise<void> {
    await this.db.run('UPDATE evaluations SET members = ?, updated_at = ? WHERE id = ?', [
      JSON.stringify(members),
      Date.now(),
      id,
    ]);
  }

  async get(id: number): Promise<StoredEvaluation | undefined> {
    return evaluations.one(await this.db.get(`SELECT ${COLUMNS} FROM evaluations WHERE id = ?`, [id]));
  }

  /** What a report concluded, and the merge order the suite gave (for `/tandem merge`). */
  async setVerdict(id: number, verdict: EvaluationVerdict): Promise<void> {
    await this.db.run('UPDATE evaluations SET outcome = ?, merge_order = ?, updated_at = ? WHERE id = ?', [
      verdict.outcome,
      JSON.stringify(verdict.mergeOrder),
      Date.now(),
      id,
    ]);
  }

  async clearVerdict(id: number): Promise<void> {
    await this.db.run('UPDATE evaluations SET outcome = NULL, updated_at = ? WHERE id = ?', [Date.now(), id]);
  }

  async verdict(id: number): Promise<EvaluationVerdict | undefined> {
    const row = verdicts.one(
      await this.db.get('SELECT id, outcome, merge_order FROM evaluations WHERE id = ?', [id]),
    );
    if (!row?.outcome) return undefined;
    return { outcome: row.outcome, mergeOrder: row.merge_order };
  }

  /**
   * The newest evaluation that concerns any of these PRs: as a member, or (queued, members not
   * settled yet) as its seed or set name. Superseded ones do not count: a newer one took over,
   * or the set was gone (every member closed) before it ran. A scan, but only `/tandem merge` asks.
   */
  async latestCovering(keys: readonly string[]): Promise<StoredEvaluation | undefined> {
    if (keys.length === 0) return undefined;
    const list = JSON.stringify(keys);
    const d = this.db.dialect;
    const listed = `(SELECT k.value FROM ${jsonStrings(d, '?', 'k')})`;
    const row = await this.db.get(
      `SELECT ${COLUMNS} FROM evaluations e
       WHERE e.state != 'superseded' AND (
         e.seed IN ${listed} OR e.set_key IN ${listed}
         OR EXISTS (SELECT 1 FROM ${jsonObjects(d, 'e.members', 'm')}
                    WHERE ${jsonField(d, 'm', 'key')} IN ${listed}))
       ORDER BY e.id DESC LIMIT 1`,
      [list, list, list],
    );
    return evaluations.one(row);
  }

  /** The report an executor produced for `id`, and what it was evaluated with (`fingerprint`). */
  async keepResult(id: number, result: { fingerprint: string; report: string }): Promise<void> {
    const now = Date.now();
    await this.db.run(
      'UPDATE evaluations SET fingerprint = ?, report = ?, evaluated_at = ?, updated_at = ? WHERE id = ?',
      [result.fingerprint, result.report, now, now, id],
    );
  }

  /** Marks `id` as carrying `from`'s result (a reuse): the next reuse finds it as the last one. */
  async carryResult(id: number, from: number): Promise<void> {
    await this.db.run(
      `UPDATE evaluations SET (fingerprint, report, evaluated_at) =
         (SELECT fingerprint, report, evaluated_at FROM evaluations WHERE id = ?), updated_at = ?
       WHERE id = ?`,
      [from, Date.now(), id],
    );
  }

  /**
   * The last published evaluation of `setKey` (the newest one, with or without a kept result): only
   * it may be reused, an older one's verdict was already replaced on GitHub.
   */
  async lastPublished(setKey: string): Promise<z.output<typeof publishedSchema> | undefined> {
    const row = await this.db.get(
      `SELECT ${COLUMNS}, fingerprint, report, evaluated_at AS "evaluatedAt" FROM evaluations
       WHERE set_key = ? AND state = 'published' ORDER BY id DESC LIMIT 1`,
      [setKey],
    );
    return published.one(row);
  }

  /**
   * True when a later evaluation than `id` waits or runs for the same set, or was asked for by one
   * of `id`'s members (a push, or a neighbour closing, that named another set): replicas, `id` is
   * stale. The members are the ones `id` settled on (none yet: only its set counts).
   */
  async newerUnfinished(setKey: string, id: number): Promise<boolean> {
    const d = this.db.dialect;
    const row = await this.db.get(
      `SELECT n.id FROM evaluations n WHERE n.id > ? AND n.state IN ('queued', 'running') AND (
         n.set_key = ? OR n.seed IN (
           SELECT ${jsonField(d, 'm', 'key')} FROM evaluations r, ${jsonObjects(d, 'r.members', 'm')}
           WHERE r.id = ?))
       LIMIT 1`,
      [id, setKey, id],
    );
    return row !== undefined;
  }

  /** Evaluations a previous process left queued or running. */
  async unfinished(): Promise<StoredEvaluation[]> {
    const rows = await this.db.all(
      `SELECT ${COLUMNS} FROM evaluations WHERE state IN ('queued', 'running') ORDER BY id`,
    );
    return evaluations.many(rows);
  }
}
