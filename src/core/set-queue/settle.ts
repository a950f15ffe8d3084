/**
 * Deciding on the results filed by recordResult, with the options in hand: re-runs of flaky and
 * infrastructure results, stalls, and the verdict of a diagnostic `alone` run. Returns the state
 * and the evictions decided.
 */
import { blameFor } from './blame.ts';
import { removeItem } from './invalidate.ts';
import type { ItemState, QueueAction, QueueOptions, QueueState } from './queue-state.schema.ts';

export function settle(s: QueueState, opts: QueueOptions): QueueState {
  let state = s;
  for (const id of s.items.map((x) => x.item.id)) {
    const it = state.items.find((x) => x.item.id === id);
    if (!it) continue;
    if (it.status === 'waiting') state = settleEvaluation(state, it, opts);
    else if (it.status === 'failing') state = settleDiagnostic(state, it, opts);
  }
  return state;
}

function settleEvaluation(s: QueueState, it: ItemState, opts: QueueOptions): QueueState {
  const outcome = it.current?.result?.outcome;
  if (outcome === 'flaky' && it.flakyReruns < opts.retries)
    return replace(s, { ...it, flakyReruns: it.flakyReruns + 1, current: undefined });
  // Out of re-runs, a flaky result is not a failure: no configuration failed in every replicate,
  // so the set's own configurations passed (flaky tests are reported beside a verdict, never grade it).
  if (outcome === 'infra') {
    if (it.infraReruns < opts.retries)
      return replace(s, { ...it, infraReruns: it.infraReruns + 1, current: undefined });
    return stall(s, it);
  }
  return s;
}

function settleDiagnostic(s: QueueState, it: ItemState, opts: QueueOptions): QueueState {
  const failure = it.failure;
  if (!failure) return s;
  // Every set it failed together with has left the queue without landing: the failure was theirs
  // (or the pair's), so this item is evaluated again on the state as it now is.
  if (failure.ahead.length === 0) return rejoin(s, it);
  // Everything it failed with landed before a diagnostic ran: the base tips now hold them, so a
  // run "alone" would repeat the failing one. Its own failure on the base as it now is.
  if (!it.diagnostic && failure.unlanded.length === 0)
    return evict(s, it, {
      reason: `fails on the base tips with ${failure.ahead.join(', ')} landed`,
      failedConfigurations: failure.result?.failedConfigurations ?? [],
    });
  const diag = it.diagnostic?.result;
  if (!diag) return s;
  if (diag.outcome === 'infra') {
    if (it.infraReruns < opts.retries)
      return replace(s, { ...it, infraReruns: it.infraReruns + 1, diagnostic: undefined });
    return stall(s, it);
  }
  if (diag.outcome === 'fail' && diag.passesAlone !== true) {
    return evict(s, it, {
      reason: 'fails alone, on the base tips',
      failedConfigurations: diag.failedConfigurations ?? failure.result?.failedConfigurations ?? [],
    });
  }
  // Passes alone. The blame waits until the sets it failed with have landed or left: one of them
  // failing on its own would have failed this item's run too, and then this item is innocent.
  if (failure.unlanded.length > 0) return s;
  const blame = blameFor(it.tested ?? [], failure.ahead);
  const failedConfigurations = failure.result?.failedConfigurations ?? [];
  if (blame.kind === 'pair') {
    const [near, far] = blame.itemIds;
    return evict(s, it, {
      reason: `passes alone and with each, fails together with ${far}'s and ${near}'s sets`,
      failedConfigurations,
      blame: { itemId: near, withItemId: far },
    });
  }
  if (blame.kind === 'own')
    return evict(s, it, { reason: 'fails alone, on the base tips', failedConfigurations });
  const others = blame.alsoUntested;
  return evict(s, it, {
    reason: `passes alone, fails together with ${blame.itemId}'s set${others.length ? ` (also on that state, never tested without: ${others.join(', ')})` : ''}`,
    failedConfigurations,
    blame: { itemId: blame.itemId },
  });
}

function evict(
  s: QueueState,
  it: ItemState,
  why: Omit<Extract<QueueAction, { kind: 'evict' }>, 'kind' | 'itemId'>,
): QueueState {
  const removed = removeItem(s, it.item.id);
  return { ...removed, pending: [...removed.pending, { kind: 'evict', itemId: it.item.id, ...why }] };
}

/**
 * Back in line where it was, evaluated again. The items behind that conflict with it were
 * evaluated without it: nextActions' validity check voids those runs.
 */
function rejoin(s: QueueState, it: ItemState): QueueState {
  const pending = [...s.pending];
  if (it.diagnostic && !it.diagnostic.result)
    pending.push({ kind: 'cancel', itemId: it.item.id, ahead: it.diagnostic.ahead });
  const back: ItemState = {
    ...it,
    status: 'waiting',
    current: undefined,
    failure: undefined,
    diagnostic: undefined,
  };
  return { ...replace(s, back), pending };
}

/**
 * Infrastructure kept failing: never a verdict, so the item stays (and the items behind keep
 * assuming it) until a person resumes or dequeues it.
 */
function stall(s: QueueState, it: ItemState): QueueState {
  return replace(s, {
    ...it,
    status: 'stalled',
    current: undefined,
    failure: undefined,
    diagnostic: undefined,
    note: `infrastructure errors on ${it.infraReruns + 1} evaluations in a row (not a verdict): resume it once the infrastructure is back, or dequeue it`,
  });
}

function replace(s: QueueState, it: ItemState): QueueState {
  return { ...s, items: s.items.map((x) => (x.item.id === it.item.id ? it : x)) };
}
