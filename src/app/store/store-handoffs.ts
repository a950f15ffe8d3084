/**
 * What the App remembers of an evaluation handed to GitHub Actions: where it was dispatched, for
 * which heads, when, and the workflow run once one is seen (`Store.handoffs`). Keyed by
 * evaluation id: a restart finds the dispatch and waits for that run instead of dispatching again.
 */
import { z } from 'zod';
import type { WorkflowRunInfo } from '../../github/actions.ts';
import type { Driver } from './store-driver.ts';
import { jsonColumn, rowReader } from './stored-row.ts';

export interface Handoff {
  evaluationId: number;
  /** `owner/name` of the evaluator repository. */
  evaluator: string;
  workflow: string;
  /** `owner/repo#N@sha` of every member dispatched: another set or head is a new dispatch. */
  heads: string[];
  dispatchedAt: number;
  run?: { id: number; url: string; status: string; conclusion: string | null };
}

const handoffs = rowReader(
  'actions_handoffs',
  ['evaluation_id'],
  z.object({
    evaluation_id: z.number().int(),
    evaluator: z.string(),
    workflow: z.string(),
    heads: jsonColumn(z.array(z.string())),
    dispatched_at: z.number(),
    run_id: z.number().int().nullable(),
    run_url: z.string().nullable(),
    run_status: z.string().nullable(),
    run_conclusion: z.string().nullable(),
  }),
);

export class HandoffStore {
  constructor(private readonly db: Driver) {}

  /** Finished hand-offs are kept a while (a late event finds its evaluation done), then dropped. */
  async prune(): Promise<void> {
    await this.db.run('DELETE FROM actions_handoffs WHERE dispatched_at < ?', [Date.now() - 30 * 86400_000]);
  }

  async get(evaluationId: number): Promise<Handoff | undefined> {
    const row = handoffs.one(
      await this.db.get('SELECT * FROM actions_handoffs WHERE evaluation_id = ?', [evaluationId]),
    );
    if (!row) return undefined;
    return {
      evaluationId: row.evaluation_id,
      evaluator: row.evaluator,
      workflow: row.workflow,
      heads: row.heads,
      dispatchedAt: row.dispatched_at,
      ...(row.run_id !== null
        ? {
            run: {
              id: row.run_id,
              url: row.run_url ?? '',
              status: row.run_status ?? 'queued',
              conclusion: row.run_conclusion,
            },
          }
        : {}),
    };
  }

  /** A new dispatch for the evaluation (replacing an older one, and the run it had). */
  async save(h: Omit<Handoff, 'run'>): Promise<Handoff> {
    await this.db.run(
      `INSERT INTO actions_handoffs (evaluation_id, evaluator, workflow, heads, dispatched_at) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (evaluation_id) DO UPDATE SET evaluator = excluded.evaluator, workflow = excluded.workflow,
         heads = excluded.heads, dispatched_at = excluded.dispatched_at, run_id = NULL, run_url = NULL,
         run_status = NULL, run_conclusion = NULL`,
      [h.evaluationId, h.evaluator, h.workflow, JSON.stringify(h.heads), h.dispatchedAt],
    );
    return { ...h };
  }

  /**
   * Records `run` as the dispatch's run, if it still may be, in one statement (so two replicas
   * observing the evaluation at once cannot undo each other's answer): the dispatch is still the
   * one made at `dispatchedAt`, its evaluation still running, and the run the first one seen (or
   * that same run again) and not a completed run going back to an earlier status. False when
   * nothing was recorded.
   */
  async recordRun(evaluationId: number, dispatchedAt: number, run: WorkflowRunInfo): Promise<boolean> {
    const r = await this.db.run(
      `UPDATE actions_handoffs SET run_id = ?, run_url = ?, run_status = ?, run_conclusion = ?
       WHERE evaluation_id = ? AND dispatched_at = ?
         AND EXISTS (SELECT 1 FROM evaluations e WHERE e.id = actions_handoffs.evaluation_id AND e.state = 'running')
         AND (run_id IS NULL OR (run_id = ? AND (run_status IS NULL OR run_status <> 'completed' OR ? = 'completed')))`,
      [run.id, run.url, run.status, run.conclusion, evaluationId, dispatchedAt, run.id, run.status],
    );
    return r.changes === 1;
  }

  async delete(evaluationId: number): Promise<void> {
    await this.db.run('DELETE FROM actions_handoffs WHERE evaluation_id = ?', [evaluationId]);
  }
}
