/** What to do now: cancellations, landings, evictions and the evaluations the budget allows. */
import type { QueueAction, QueueOptions, QueueState } from './queue-state.schema.ts';

export function nextActions(
  s: QueueState,
  _opts: QueueOptions,
): { state: QueueState; actions: QueueAction[] } {
  return { state: { ...s, pending: [] }, actions: s.pending };
}
