/** Results and landings coming back from the App (or the simulator). */
import type { EvaluationResult, QueueState } from './queue-state.schema.ts';

export function recordResult(
  s: QueueState,
  _itemId: string,
  _ahead: string[],
  _result: EvaluationResult,
): QueueState {
  return s;
}

export function recordLanded(s: QueueState, _itemId: string): QueueState {
  return s;
}

export function recordLandingRefused(s: QueueState, _itemId: string, _reason: string): QueueState {
  return s;
}
