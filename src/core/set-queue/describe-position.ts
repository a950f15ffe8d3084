/**
 * What the queue status says about one item: its place, its lane, what it waits for and which
 * item blocks it and why. Plain words, for the check and the comment the App writes.
 */
import { aheadOf } from './lanes.ts';
import type { ItemState, QueueState } from './queue-state.schema.ts';

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
  const it = s.items[at];
  if (!it) return { position: 0, lane: [], waitingFor: 'not in the queue' };
  const lane = aheadOf(s.items, itemId);
  const base = { position: at + 1, lane };
  const on = (ids: string[]) => (ids.length ? `the base tips + ${ids.join(', ')}` : 'the base tips');
  switch (it.status) {
    case 'landing':
      return { ...base, waitingFor: 'its landing (moving the base branches to the tested commits)' };
    case 'stalled':
      return { ...base, waitingFor: it.note ?? 'a person: infrastructure kept failing' };
    case 'failing': {
      const f = it.failure;
      const with_ = f?.ahead.join(', ') ?? '';
      if (!it.diagnostic?.result)
        return {
          ...base,
          waitingFor: `a diagnostic evaluation on the base tips alone (it failed on ${on(f?.ahead ?? [])})`,
        };
      const first = f?.unlanded[0];
      return {
        ...base,
        waitingFor: `the sets it failed together with (${with_}) to land or leave the queue`,
        ...(first ? { blockedBy: { itemId: first, why: whyWaiting(s, first) } } : {}),
      };
    }
  }
  const e = it.current;
  if (!e) {
    const first = lane[0];
    return {
      ...base,
      waitingFor: `an evaluation slot (the speculation budget is in use by items nearer the front), to be evaluated on ${on(lane)}`,
      ...(first ? { blockedBy: { itemId: first, why: whyWaiting(s, first) } } : {}),
    };
  }
  if (!e.result)
    return { ...base, waitingFor: `its evaluation on ${on(e.ahead)} (attempt ${e.attempt + 1})` };
  const first = e.unlanded[0];
  return {
    ...base,
    waitingFor: first ? `the sets ahead to land: ${e.unlanded.join(', ')}` : 'its landing',
    ...(first ? { blockedBy: { itemId: first, why: whyWaiting(s, first) } } : {}),
  };
}

/** One item's state in a few words, as the reason another waits for it. */
function whyWaiting(s: QueueState, id: string): string {
  const it = s.items.find((x) => x.item.id === id) as ItemState | undefined;
  if (!it) return 'left the queue';
  if (it.status === 'landing') return 'landing';
  if (it.status === 'stalled') return 'stalled on infrastructure errors';
  if (it.status === 'failing') return 'failed; diagnosing';
  if (!it.current) return 'waiting for an evaluation slot';
  if (!it.current.result) return 'being evaluated';
  return it.current.unlanded.length
    ? `passed; waiting for ${it.current.unlanded.join(', ')} to land`
    : 'passed; landing next';
}
