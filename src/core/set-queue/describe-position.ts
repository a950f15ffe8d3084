/** What the queue status says about one item: its position, its lane, what it waits for, who blocks it. */
import { aheadOf } from './lanes.ts';
import type { QueueState } from './queue-state.schema.ts';

export interface QueuePosition {
  /** 1-based place in the whole queue (merge order); 0 when the item is not queued. */
  position: number;
  /** The items ahead of it that its state includes, in merge order. */
  lane: string[];
  waitingFor: string;
  blockedBy?: { itemId: string; why: string };
}

export function describePosition(s: QueueState, itemId: string): QueuePosition {
  const at = s.items.findIndex((x) => x.item.id === itemId);
  if (at < 0) return { position: 0, lane: [], waitingFor: 'not in the queue' };
  return { position: at + 1, lane: aheadOf(s.items, itemId), waitingFor: 'TODO' };
}
