/**
 * The linked-set queue's state, validated with zod because the App stores it and reads it back:
 * pure data (no clocks, no class instances), so a restart resumes exactly where it stopped.
 * Items are linked sets in enqueue order; landed, evicted and dequeued items leave `items`.
 */
import { z } from 'zod';

export const QueueMemberSchema = z.strictObject({
  /** `owner/repo#n`. */
  pull: z.string().min(1),
  /** `owner/name`. */
  repo: z.string().min(1),
  baseBranch: z.string().min(1),
});
export type QueueMember = z.infer<typeof QueueMemberSchema>;

export const QueueItemSchema = z.strictObject({
  id: z.string().min(1),
  members: z.array(QueueMemberSchema).min(1),
  /**
   * Repositories the set's evaluation checks out without changing them (the App: its suite's
   * other repositories, its context, which its `wiring` edges wire in): an item ahead that
   * changes one of them changes what this item is tested on.
   */
  wiringRepos: z.array(z.string().min(1)).optional(),
  enqueuedAt: z.number(),
});
export type QueueItem = z.infer<typeof QueueItemSchema>;

export const EvaluationResultSchema = z.strictObject({
  /** flaky: replicates differed; infra: the machinery failed, never a verdict (re-run). */
  outcome: z.enum(['pass', 'fail', 'flaky', 'infra']),
  /** Names of the matrix configurations that failed. */
  failedConfigurations: z.array(z.string()).optional(),
  /** From a diagnostic run on the base tips only, when asked (`diagnostic: 'alone'`). */
  passesAlone: z.boolean().optional(),
});
export type EvaluationResult = z.infer<typeof EvaluationResultSchema>;

export const BlameSchema = z.strictObject({ itemId: z.string() });

export const QueueActionSchema = z.discriminatedUnion('kind', [
  z.strictObject({
    kind: z.literal('evaluate'),
    itemId: z.string(),
    /** Items whose changes the speculative state includes, in merge order ([] = base tips only). */
    ahead: z.array(z.string()),
    /** 0 for the item's first evaluation, +1 for each one started after it. */
    attempt: z.number().int().nonnegative(),
    diagnostic: z.literal('alone').optional(),
  }),
  z.strictObject({ kind: z.literal('land'), itemId: z.string() }),
  z.strictObject({
    kind: z.literal('evict'),
    itemId: z.string(),
    reason: z.string(),
    failedConfigurations: z.array(z.string()),
    blame: BlameSchema.optional(),
  }),
  /** A running evaluation whose assumptions broke: stop it, its result will be ignored. */
  z.strictObject({ kind: z.literal('cancel'), itemId: z.string(), ahead: z.array(z.string()) }),
]);
export type QueueAction = z.infer<typeof QueueActionSchema>;

/** One evaluation of an item, started by an `evaluate` action. */
export const EvaluationSchema = z.strictObject({
  /** As sent in the action: how the result is matched to it. */
  ahead: z.array(z.string()),
  /** The items of `ahead` that have not landed yet: what the result still assumes. */
  unlanded: z.array(z.string()),
  attempt: z.number().int().nonnegative(),
  diagnostic: z.literal('alone').optional(),
  result: EvaluationResultSchema.optional(),
});
export type Evaluation = z.infer<typeof EvaluationSchema>;

export const ItemStateSchema = z.strictObject({
  item: QueueItemSchema,
  /**
   * waiting: in the queue, evaluated or to be; failing: failed on a state with sets ahead, no
   * longer assumed by anyone, waiting for its diagnostic `alone` run; landing: a `land` action
   * was sent; stalled: infrastructure kept failing, waits for `resume` or `dequeue`.
   */
  status: z.enum(['waiting', 'failing', 'landing', 'stalled']),
  /** Evaluations started for this item (the next one's `attempt`). */
  attempts: z.number().int().nonnegative(),
  /** Re-runs spent on flaky and on infrastructure results since the last verdict. */
  flakyReruns: z.number().int().nonnegative(),
  infraReruns: z.number().int().nonnegative(),
  /** The latest (non-diagnostic) evaluation, running or with its result. */
  current: EvaluationSchema.optional(),
  /** The failing result being diagnosed (status failing). */
  failure: EvaluationSchema.optional(),
  diagnostic: EvaluationSchema.optional(),
  /** Why the last landing of the item was held back, for the status. */
  note: z.string().optional(),
});
export type ItemState = z.infer<typeof ItemStateSchema>;

export const QueueStateSchema = z.strictObject({
  items: z.array(ItemStateSchema),
  /** Actions decided by record*() and dequeue() that nextActions() hands out next. */
  pending: z.array(QueueActionSchema),
});
export type QueueState = z.infer<typeof QueueStateSchema>;

export interface QueueOptions {
  /** How many evaluations may run at once (`queue.speculation`, default 4). */
  speculation: number;
  /** Re-runs of a flaky (and of an infrastructure) result before deciding (`queue.retries`). */
  retries: number;
  /** The baseline: one item at a time, in queue order, nothing speculative. */
  serial?: boolean;
}

/** `queue.speculation` and `queue.retries` when the organization's config says nothing (the CLI's defaults too). */
export const DEFAULT_QUEUE_OPTIONS: QueueOptions = { speculation: 4, retries: 2 };
