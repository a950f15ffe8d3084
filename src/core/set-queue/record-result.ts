/**
 * Results and landings coming back from the App (or the simulator). Recording only files the
 * facts and voids what they break; what to do about them (re-run, land, evict) is decided by
 * nextActions, which knows the options (retries, budget).
 */
import { invalidateAssuming, removeItem } from './invalidate.ts';
import type { Evaluation, EvaluationResult, ItemState, QueueState } from './queue-state.schema.ts';

const sameList = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((x, i) => x === b[i]);

/**
 * The result of the evaluation started for `itemId` on `ahead` (as the evaluate action said;
 * `attempt` too when given). A result nothing waits for (cancelled, dequeued, repeated) is ignored.
 * A failure on a state that holds unlanded sets ahead makes the item `failing`: nobody assumes it
 * any more (the items behind are re-evaluated without it) and a diagnostic run decides the blame.
 */
export function recordResult(
  s: QueueState,
  itemId: string,
  ahead: string[],
  result: EvaluationResult,
  attempt?: number,
): QueueState {
  const found = s.items.find((x) => x.item.id === itemId);
  if (!found) return s;
  const matches = (e: Evaluation | undefined) =>
    e !== undefined &&
    !e.result &&
    sameList(e.ahead, ahead) &&
    (attempt === undefined || e.attempt === attempt);
  const awaited =
    found.status === 'failing' ? found.diagnostic : found.status === 'waiting' ? found.current : undefined;
  if (!matches(awaited)) return s;
  const it = withTested(found, ahead, result);
  if (it.status === 'failing' && matches(it.diagnostic)) {
    return replace(s, { ...it, diagnostic: { ...(it.diagnostic as Evaluation), result } });
  }
  if (it.status !== 'waiting' || !matches(it.current)) return s;
  const current: Evaluation = { ...(it.current as Evaluation), result };
  if (result.outcome !== 'fail') return replace(s, { ...it, current });
  if (current.unlanded.length === 0) {
    // Failed on the base tips (plus what has landed since): its own failure, no diagnostic needed.
    const evicted = removeItem(replace(s, { ...it, current }), itemId);
    return {
      ...evicted,
      pending: [
        ...evicted.pending,
        {
          kind: 'evict',
          itemId,
          reason:
            current.ahead.length === 0
              ? 'fails on the base tips'
              : `fails on the base tips with ${current.ahead.join(', ')} landed`,
          failedConfigurations: result.failedConfigurations ?? [],
        },
      ],
    };
  }
  const failing: ItemState = { ...it, status: 'failing', current: undefined, failure: current };
  return invalidateAssuming(replace(s, failing), itemId);
}

/** The item's members are on their base branches: it leaves the queue, and is no longer "unlanded" anywhere. */
export function recordLanded(s: QueueState, itemId: string): QueueState {
  const drop = <T extends { unlanded: string[] } | undefined>(e: T): T =>
    e ? { ...e, unlanded: e.unlanded.filter((id) => id !== itemId) } : e;
  return {
    ...s,
    items: s.items
      .filter((x) => x.item.id !== itemId)
      .map((x) => ({ ...x, current: drop(x.current), failure: drop(x.failure) })),
  };
}

/**
 * Landing was refused (a base branch moved, a rule the App may not bypass): what was landed has
 * been reverted by the App; the item leaves the queue with the reason, and the items behind that
 * assumed it are re-evaluated without it.
 */
export function recordLandingRefused(s: QueueState, itemId: string, reason: string): QueueState {
  if (!s.items.some((x) => x.item.id === itemId)) return s;
  const removed = removeItem(s, itemId);
  return {
    ...removed,
    pending: [
      ...removed.pending,
      { kind: 'evict', itemId, reason: `landing refused: ${reason}`, failedConfigurations: [] },
    ],
  };
}

/** Enough states for blame among the sets ahead of one item; older ones were on a base long gone. */
const TESTED_KEPT = 32;

function withTested(it: ItemState, ahead: string[], result: EvaluationResult): ItemState {
  if (result.outcome !== 'pass' && result.outcome !== 'fail') return it;
  // A diagnostic that failed somewhere but says the set passes alone is a pass on the base tips.
  const outcome = result.passesAlone === true ? 'pass' : result.outcome;
  const tested = [...(it.tested ?? []), { ahead, outcome }].slice(-TESTED_KEPT);
  return { ...it, tested };
}

function replace(s: QueueState, it: ItemState): QueueState {
  return { ...s, items: s.items.map((x) => (x.item.id === it.item.id ? it : x)) };
}
