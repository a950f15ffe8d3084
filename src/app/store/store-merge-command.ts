/**
 * `/tandem merge` attempts, one row each: the evaluation they follow, who asked, and each
 * member's step (merged with its commit, refused with the reason, not attempted). The database keeps at
 * most one `running` attempt per evaluation (a partial unique index), which is what refuses a
 * second `/tandem merge` while one runs — from any member, in any process.
 */
import { z } from 'zod';
import { type MergeStep, mergeOutcomeSchema, mergeStepSchema } from '../../core/merge-command-plan.ts';
import { jsonField, jsonObjects, serialiseWrites } from './sql-dialect.ts';
import type { Driver } from './store-driver.ts';
import { jsonColumn, rowReader } from './stored-row.ts';

/** `interrupted`: the App stopped while merging; the next attempt reads GitHub afresh. */
const attemptStateSchema = z.union([z.literal('running'), mergeOutcomeSchema, z.literal('interrupted')]);
export type MergeAttemptState = z.output<typeof attemptStateSchema>;

const attempts = rowReader(
  'merges',
  ['id'],
  z
    .object({
      id: z.number().int(),
      evaluation_id: z.number().int(),
      requested_by: z.string(),
      state: attemptStateSchema,
      steps: jsonColumn(z.array(mergeStepSchema)),
    })
    .transform((r) => ({
      id: r.id,
      evaluationId: r.evaluation_id,
      requestedBy: r.requested_by,
      state: r.state,
      steps: r.steps,
    })),
);
export type MergeAttempt = NonNullable<ReturnType<typeof attempts.one>>;

/** What `start` did: began attempt `started`, or found one running, or found the set merged. */
export type MergeStart = { started: number } | { running: true } | { merged: MergeAttempt };

export class MergesTable {
  constructor(private readonly db: Driver) {}

  /**
   * A new running attempt (`started`, its id); or none, when one already runs for this
   * evaluation (`running`) or its newest attempt merged the set (`merged`, that attempt). The
   * newest attempt is read and the new one inserted in one transaction that waits for any other
   * start (any replica): a `/tandem merge` that read "not merged" just before another finished
   * merging never starts over. The partial unique index still keeps one `running` per evaluation.
   */
  async start(evaluationId: number, requestedBy: string): Promise<MergeStart> {
    return this.db.transaction(async (tx) => {
      await serialiseWrites(tx, 'merges');
      const last = attempts.one(
        await tx.get('SELECT * FROM merges WHERE evaluation_id = ? ORDER BY id DESC LIMIT 1', [evaluationId]),
      );
      if (last?.state === 'merged') return { merged: last };
      if (last?.state === 'running') return { running: true };
      const now = Date.now();
      const row = await tx.get(
        `INSERT INTO merges (evaluation_id, requested_by, state, created_at, updated_at)
         VALUES (?, ?, 'running', ?, ?) ON CONFLICT DO NOTHING RETURNING id`,
        [evaluationId, requestedBy, now, now],
      );
      return row === undefined
        ? { running: true }
        : { started: z.object({ id: z.number().int() }).parse(row).id };
    });
  }

  /** Records what the attempt did so far (each step as it happens) or how it ended. */
  async update(id: number, state: MergeAttemptState, steps: readonly MergeStep[]): Promise<void> {
    await this.db.run('UPDATE merges SET state = ?, steps = ?, updated_at = ? WHERE id = ?', [
      state,
      JSON.stringify(steps),
      Date.now(),
      id,
    ]);
  }

  /** The newest attempt for an evaluation. */
  async latest(evaluationId: number): Promise<MergeAttempt | undefined> {
    return attempts.one(
      await this.db.get('SELECT * FROM merges WHERE evaluation_id = ? ORDER BY id DESC LIMIT 1', [
        evaluationId,
      ]),
    );
  }

  /** Members this evaluation's attempts merged, with their merge commits. */
  async mergedBefore(evaluationId: number): Promise<Map<string, string>> {
    const rows = attempts.many(
      await this.db.all('SELECT * FROM merges WHERE evaluation_id = ? ORDER BY id', [evaluationId]),
    );
    const out = new Map<string, string>();
    for (const s of rows.flatMap((r) => r.steps))
      if (s.result === 'merged' && s.mergeSha) out.set(s.key, s.mergeSha);
    return out;
  }

  /**
   * The newest step that merged this PR, in any attempt: a member merged before its set was
   * evaluated again without it still belongs in the set's merge comment.
   */
  async mergedStep(key: string): Promise<MergeStep | undefined> {
    const d = this.db.dialect;
    const rows = await this.db.all(
      `SELECT * FROM merges m WHERE EXISTS (SELECT 1 FROM ${jsonObjects(d, 'm.steps', 's')}
         WHERE ${jsonField(d, 's', 'key')} = ? AND ${jsonField(d, 's', 'result')} = 'merged')
       ORDER BY id DESC LIMIT 1`,
      [key],
    );
    return attempts
      .many(rows)
      .flatMap((r) => r.steps)
      .find((s) => s.key === key && s.result === 'merged');
  }

  /** At start: attempts a previous process left running did not finish. */
  async interruptRunning(): Promise<number> {
    const r = await this.db.run(
      `UPDATE merges SET state = 'interrupted', updated_at = ? WHERE state = 'running'`,
      [Date.now()],
    );
    return r.changes;
  }
}
