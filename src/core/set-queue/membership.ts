/** Entering and leaving the queue: enqueue, dequeue (by a person) and resume (after infrastructure stalls). */
import { removeItem } from './invalidate.ts';
import type { QueueItem, QueueState } from './queue-state.schema.ts';

export function emptyQueue(): QueueState {
  return { items: [], pending: [] };
}

/** Appends the set to the back of the queue; enqueuing an id already queued changes nothing. */
export function enqueue(s: QueueState, item: QueueItem): QueueState {
  if (s.items.some((x) => x.item.id === item.id)) return s;
  return {
    ...s,
    items: [...s.items, { item, status: 'waiting', attempts: 0, flakyReruns: 0, infraReruns: 0 }],
  };
}

/**
 * Removes the item: its running evaluation is cancelled, and the items behind it that assumed it
 * would land are re-evaluated without it. Unknown ids change nothing (a second `/tandem dequeue`).
 */
export function dequeue(s: QueueState, itemId: string): QueueState {
  return removeItem(s, itemId);
}

/** A stalled item (infrastructure kept failing) is evaluated again from scratch. */
export function resume(s: QueueState, itemId: string): QueueState {
  return {
    ...s,
    items: s.items.map((x) =>
      x.item.id === itemId && x.status === 'stalled'
        ? { ...x, status: 'waiting', infraReruns: 0, current: undefined, note: undefined }
        : x,
    ),
  };
}
