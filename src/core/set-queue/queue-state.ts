/**
 * Changes to the agreed interface (Q-shared.md): nextActions' options are `QueueOptions`
 * (adds `serial?: boolean`, the one-at-a-time baseline); `resume(s, itemId)` restarts an item
 * stalled by repeated infrastructure errors; `QueueStateSchema` validates a stored state;
 * evict actions also come out of nextActions (decided by recordResult/recordLandingRefused),
 * so the App performs every action nextActions returns, in order. After an `evaluate` the App
 * calls recordResult(itemId, action.ahead, result) — for the diagnostic too (ahead []).
 *
 * The linked-set queue (issue 28), pure: items are linked sets; two items conflict when they
 * share a repository and base branch or a wiring edge, and share a lane; each item is evaluated on
 * the base tips plus every item ahead of it in its lanes (speculative states). The App stores the
 * state (queue-state.schema.ts), feeds it events (record*) and performs the actions nextActions()
 * returns; `tandem queue simulate` does the same with a fake clock.
 *
 * Entry point of src/core/set-queue/: the functions live one concern per file and are re-exported here.
 */

export { describePosition, type QueuePosition } from './describe-position.ts';
export { aheadOf, conflicts } from './lanes.ts';
export { dequeue, emptyQueue, enqueue, resume } from './membership.ts';
export { nextActions } from './next-actions.ts';
export type {
  Evaluation,
  EvaluationResult,
  ItemState,
  QueueAction,
  QueueItem,
  QueueMember,
  QueueOptions,
  QueueState,
} from './queue-state.schema.ts';
export { QueueStateSchema } from './queue-state.schema.ts';
export { recordLanded, recordLandingRefused, recordResult } from './record-result.ts';
