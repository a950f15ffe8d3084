/**
 * What the App remembers of an evaluation handed to GitHub Actions: where it was dispatched, for
 * which heads, when, and the workflow run once one is seen (`Store.handoffs`). Keyed by
 * evaluation id: a restart finds the dispatch and waits for that run instead of dispatching again.
 */
import type Database from 'better-sqlite3';
import { z } from 'zod';
import type { WorkflowRunInfo } from '../../github/actions.ts';
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
  constructor(private readonly db: Database.Database) {
    // Finished hand-offs are kept a while (a late event finds its evaluation done), then dropped.
    db.prepare('DELETE FROM actions_handoffs WHERE dispatched_at < ?').run(Date.now() - 30 * 86400_000);
  }

  get(evaluationId: number): Handoff | undefined {
    const row = handoffs.one(
      this.db.prepare('SELECT * FROM actions_handoffs WHERE evaluation_id = ?').get(evaluationId),
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

  /** A new dispatch for the evaluation (replacing an older one). */
  save(h: Omit<Handoff, 'run'>): Handoff {
    this.db
      .prepare(
        `INSERT OR REPLACE INTO actions_handoffs (evaluation_id, evaluator, workflow, heads, dispatched_at)
         VALUES (?, ?, ?, ?, ?)`,
      )
      .run(h.evaluationId, h.evaluator, h.workflow, JSON.stringify(h.heads), h.dispatchedAt);
    return { ...h };
  }

  recordRun(evaluationId: number, run: WorkflowRunInfo): void {
    this.db
      .prepare(
        `UPDATE actions_handoffs SET run_id = ?, run_url = ?, run_status = ?, run_conclusion = ?
         WHERE evaluation_id = ?`,
      )
      .run(run.id, run.url, run.status, run.conclusion, evaluationId);
  }

  delete(evaluationId: number): void {
    this.db.prepare('DELETE FROM actions_handoffs WHERE evaluation_id = ?').run(evaluationId);
  }
}
