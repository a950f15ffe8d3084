/**
 * When an item stops being expected to land (failed, evicted, dequeued, landing refused), every
 * evaluation that assumed it is void: a running one is cancelled, a finished one forgotten, and
 * the item is evaluated again without it (nextActions starts those nearest the front first).
 */
import type { ItemState, QueueState } from './queue-state.schema.ts';

/** Voids the evaluations that assumed `goneId` would land; the item itself stays where it is. */
export function invalidateAssuming(s: QueueState, goneId: string): QueueState {
  const pending = [...s.pending];
  const items = s.items.map((x): ItemState => {
    let next = x;
    const e = x.current;
    if (e?.unlanded.includes(goneId)) {
      if (!e.result) pending.push({ kind: 'cancel', itemId: x.item.id, ahead: e.ahead });
      next = { ...next, current: undefined };
    }
    // The state a failure was seen on will never exist now: the failure may have been the gone
    // item's doing, so it says nothing about this item (settle puts it back in line).
    const f = x.failure;
    if (f?.ahead.includes(goneId)) next = { ...next, failure: { ...f, ahead: [], unlanded: [] } };
    return next;
  });
  return { items, pending };
}

/** Takes the item out of the queue (its running evaluations cancelled) and voids what assumed it. */
export function removeItem(s: QueueState, itemId: string): QueueState {
  const it = s.items.find((x) => x.item.id === itemId);
  if (!it) return s;
  const pending = [...s.pending];
  for (const e of [it.current, it.diagnostic])
    if (e && !e.result) pending.push({ kind: 'cancel', itemId, ahead: e.ahead });
  return invalidateAssuming({ items: s.items.filter((x) => x.item.id !== itemId), pending }, itemId);
}
