/**
 * What to do now, in the order the App performs it: cancellations and evictions first (they free
 * slots and tell authors), then landings, then the evaluations the speculation budget allows,
 * nearest the front first, so the items behind a failure are re-evaluated nearest first.
 */
import { aheadOf } from './lanes.ts';
import type { Evaluation, ItemState, QueueAction, QueueOptions, QueueState } from './queue-state.schema.ts';
import { settle } from './settle.ts';

const sameSet = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((x) => b.includes(x));

const running = (e: Evaluation | undefined) => e !== undefined && !e.result;

export function nextActions(
  s: QueueState,
  opts: QueueOptions,
): { state: QueueState; actions: QueueAction[] } {
  let state = voidStale(settle(s, opts));
  const actions: QueueAction[] = [...state.pending];
  state = { ...state, pending: [] };
  const items = state.items.map((it): ItemState => {
    if (it.status !== 'waiting' || !landable(it)) return it;
    actions.push({ kind: 'land', itemId: it.item.id });
    return { ...it, status: 'landing' };
  });
  let busy = items.reduce((n, x) => n + Number(running(x.current)) + Number(running(x.diagnostic)), 0);
  const budget = opts.serial ? 1 : Math.max(1, opts.speculation);
  for (const [i, it] of items.entries()) {
    if (busy >= budget) break;
    // The baseline: only the front item, on the base tips, once everything before it has settled.
    if (opts.serial && i > 0) break;
    const start = (ahead: string[], diagnostic?: 'alone'): ItemState => {
      busy++;
      const e: Evaluation = {
        ahead,
        unlanded: ahead,
        attempt: it.attempts,
        ...(diagnostic ? { diagnostic } : {}),
      };
      actions.push({
        kind: 'evaluate',
        itemId: it.item.id,
        ahead,
        attempt: it.attempts,
        ...(diagnostic ? { diagnostic } : {}),
      });
      return diagnostic
        ? { ...it, attempts: it.attempts + 1, diagnostic: e }
        : { ...it, attempts: it.attempts + 1, current: e };
    };
    if (it.status === 'waiting' && !it.current) items[i] = start(aheadOf(items, it.item.id));
    else if (it.status === 'failing' && !it.diagnostic && !landingNow(items, it))
      items[i] = start([], 'alone');
  }
  return { state: { ...state, items }, actions };
}

/** A set it failed with is landing: a run on the base tips now would not be "alone"; wait for it. */
function landingNow(items: readonly ItemState[], it: ItemState): boolean {
  return (it.failure?.unlanded ?? []).some((id) => items.find((x) => x.item.id === id)?.status === 'landing');
}

/** Passed (or flaky with no re-run left, decided by settle) and everything it assumed has landed. */
function landable(it: ItemState): boolean {
  const r = it.current?.result;
  return (
    r !== undefined && (r.outcome === 'pass' || r.outcome === 'flaky') && it.current?.unlanded.length === 0
  );
}

/**
 * An evaluation is valid while the items it assumed and has not seen land are exactly the items
 * ahead in its lanes now: an item gone from there (failed, evicted) or back in (a failing item
 * rejoining) voids it. Running ones are cancelled.
 */
function voidStale(s: QueueState): QueueState {
  const pending = [...s.pending];
  const items = s.items.map((it): ItemState => {
    const e = it.current;
    if (it.status !== 'waiting' || !e || sameSet(e.unlanded, aheadOf(s.items, it.item.id))) return it;
    if (!e.result) pending.push({ kind: 'cancel', itemId: it.item.id, ahead: e.ahead });
    return { ...it, current: undefined };
  });
  return { items, pending };
}
