/**
 * `/tandem merge` attempts, one row each: the evaluation they follow, who asked, and each
 * member's step (merged with its commit, refused with the reason, not attempted). SQLite keeps at
 * most one `running` attempt per evaluation (a partial unique index), which is what refuses a
 * second `/tandem merge` while one runs — from any member, in any process.
 */
import type Database from 'better-sqlite3';
import { z } from 'zod';
import { type MergeStep, mergeOutcomeSchema, mergeStepSchema } from '../../core/merge-command-plan.ts';
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

export class MergesTable {
  constructor(private readonly db: Database.Database) {}

  /** A new running attempt, or undefined when one already runs for this evaluation. */
  start(evaluationId: number, requestedBy: string): number | undefined {
    const now = Date.now();
    const r = this.db
      .prepare(
        `INSERT OR IGNORE INTO merges (evaluation_id, requested_by, state, created_at, updated_at)
         VALUES (?, ?, 'running', ?, ?)`,
      )
      .run(evaluationId, requestedBy, now, now);
    return r.changes === 1 ? Number(r.lastInsertRowid) : undefined;
  }

  /** Records what the attempt did so far (each step as it happens) or how it ended. */
  update(id: number, state: MergeAttemptState, steps: readonly MergeStep[]): void {
    this.db
      .prepare('UPDATE merges SET state = ?, steps = ?, updated_at = ? WHERE id = ?')
      .run(state, JSON.stringify(steps), Date.now(), id);
  }

  /** The newest attempt for an evaluation. */
  latest(evaluationId: number): MergeAttempt | undefined {
    return attempts.one(
      this.db
        .prepare('SELECT * FROM merges WHERE evaluation_id = ? ORDER BY id DESC LIMIT 1')
        .get(evaluationId),
    );
  }

  /** Members this evaluation's attempts merged, with their merge commits. */
  mergedBefore(evaluationId: number): Map<string, string> {
    const rows = attempts.many(
      this.db.prepare('SELECT * FROM merges WHERE evaluation_id = ? ORDER BY id').all(evaluationId),
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
  mergedStep(key: string): MergeStep | undefined {
    const rows = this.db
      .prepare(
        `SELECT * FROM merges m WHERE EXISTS (SELECT 1 FROM json_each(m.steps) s
           WHERE json_extract(s.value, '$.key') = ? AND json_extract(s.value, '$.result') = 'merged')
         ORDER BY id DESC LIMIT 1`,
      )
      .all(key);
    return attempts
      .many(rows)
      .flatMap((r) => r.steps)
      .find((s) => s.key === key && s.result === 'merged');
  }

  /** At start: attempts a previous process left running did not finish. */
  interruptRunning(): number {
    return this.db
      .prepare(`UPDATE merges SET state = 'interrupted', updated_at = ? WHERE state = 'running'`)
      .run(Date.now()).changes;
  }
}
