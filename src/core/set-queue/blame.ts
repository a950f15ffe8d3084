/**
 * Who is to blame when an item fails on a speculative state but passes alone: decided from the
 * matrix of states the item itself was evaluated on (its `tested` record), not by pointing at
 * the nearest set ahead. A set ahead that the item has passed together with is not to blame on
 * its own; when every set on the failing state has such a pass, the failure needs two of them
 * together, and the nearest pair never seen passing together is named.
 *
 * States are compared as sets of item ids on top of the base tips: a pass on [B] clears B when
 * the failing state is [A, B]. Sets that landed since are part of both sides' base, which is the
 * same approximation the queue's own landing makes (an item tested on [A] lands once A has).
 */
import type { TestedState } from './queue-state.schema.ts';

export type Blame =
  /** It fails on the base tips alone: its own change. */
  | { kind: 'own' }
  /** One set: the item was never seen passing together with it. `alsoUntested`: others alike, nearer ones first. */
  | { kind: 'set'; itemId: string; alsoUntested: string[] }
  /** Two sets: it passed with each, never with both. */
  | { kind: 'pair'; itemIds: [string, string] };

/** `failedOn`: the failing state's items ahead, in merge order. */
export function blameFor(tested: readonly TestedState[], failedOn: readonly string[]): Blame {
  if (tested.some((t) => t.outcome === 'fail' && t.ahead.length === 0)) return { kind: 'own' };
  const inFailing = new Set(failedOn);
  const passes = tested
    .filter((t) => t.outcome === 'pass' && t.ahead.every((id) => inFailing.has(id)))
    .map((t) => new Set(t.ahead));
  // A pass on the very state it failed on says nothing (the failure is a flaky one): ignore it.
  const partial = passes.filter((p) => p.size < inFailing.size);
  const nearestFirst = [...failedOn].reverse();
  const suspects = nearestFirst.filter((id) => !partial.some((p) => p.has(id)));
  if (suspects.length > 0) {
    const [itemId, ...alsoUntested] = suspects as [string, ...string[]];
    return { kind: 'set', itemId, alsoUntested };
  }
  for (const [i, near] of nearestFirst.entries())
    for (const far of nearestFirst.slice(i + 1))
      if (!partial.some((p) => p.has(near) && p.has(far))) return { kind: 'pair', itemIds: [near, far] };
  // Every pair passed together: three or more sets together break it; the nearest is named.
  const [itemId, ...alsoUntested] = nearestFirst as [string, ...string[]];
  return { kind: 'set', itemId, alsoUntested };
}
