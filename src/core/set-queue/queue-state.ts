/**
 * The interface: nextActions' options are `QueueOptions`
 * (adds `serial?: boolean`, the one-at-a-time baseline); `resume(s, itemId)` restarts an item
 * stalled by repeated infrastructure errors; `QueueStateSchema` validates a stored state;
 * `DEFAULT_QUEUE_OPTIONS` = { speculation 4, retries 2 }; recordResult takes an optional `attempt`;
 * landing refused evicts the item (reason `landing refused: …`), it is not re-queued;
 * evict actions also come out of nextActions (decided by recordResult/recordLandingRefused),
 * so the App performs every action nextActions returns, in order. After an `evaluate` the App
 * calls recordResult(itemId, action.ahead, result, action.attempt) — for the diagnostic too (ahead []).
 *
 * What the App must keep for this logic to be right:
 * - An item's tested commit in a repository must be a function of (repository, onto, member heads):
 *   reuse the commit already built for the same inputs, or build it deterministically (fixed
 *   dates). A re-run on the same state (flaky, infrastructure) and a re-evaluation after a change
 *   in another repository do NOT void the items behind that built on it; a rebuilt commit with a
 *   new SHA would make their landing a non-fast-forward.
 * - `cancel` names (itemId, ahead): stop that run; a result for it that still arrives is ignored.
 * - After `land`, call recordLanded or recordLandingRefused exactly once; after `evict`, nothing
 *   (the item has left the state already).
 *
 * The linked-set queue (issue 28), pure: items are linked sets; two items conflict when they
 * share a repository and base branch or a wiring edge, and share a lane; each item is evaluated on
 * the base tips plus every item ahead of it in its lanes (speculative states). The App stores the
 * state (queue-state.schema.ts), feeds it events (record*) and performs the actions nextActions()
 * returns; `tandem queue simulate` does the same with a fake clock.
 *
 * Entry point of src/core/set-queue/: the functions live one concern per file and are re-exported here.
 */

export { type Blame, blameFor } from './blame.ts';
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
  TestedState,
} from './queue-state.schema.ts';
export { DEFAULT_QUEUE_OPTIONS, QueueStateSchema } from './queue-state.schema.ts';
export { recordLanded, recordLandingRefused, recordResult } from './record-result.ts';
