/**
 * When an item stops being expected to land (failed, evicted, dequeued, landing refused), every
 * evaluation that assumed it is void: a running one is cancelled, a finished one forgotten, and
 * the item is evaluated again without it (nextActions starts those nearest the front first).
 */
import type { QueueState } from './queue-state.schema.ts';

export function invalidateAssuming(s: QueueState, goneId: string): QueueState {
  const pending = [...s.pending];
  const items = s.items.map((x) => {
    const e = x.current;
    if (!e || !e.unlanded.includes(goneId)) return x;
    if (!e.result) pending.push({ kind: 'cancel', itemId: x.item.id, ahead: e.ahead });
    // A landing already sent is the App's to finish or refuse; never the case here, since an item
    // lands only once everything it assumed has landed.
    return { ...x, current: undefined };
  });
  return { items, pending };
}
