import pLimit from 'p-limit';
import { describe, expect, it } from 'vitest';
import { holdSlot, readyAhead } from '../../src/engine/run-slots.ts';

describe('holdSlot', () => {
  it('opens gates in order, one per free slot, and hands a slot on when released', async () => {
    const slots = pLimit(1);
    const opened: string[] = [];
    const a = holdSlot(slots);
    const b = holdSlot(slots);
    void a.gate.then(() => opened.push('a'));
    void b.gate.then(() => opened.push('b'));
    await a.gate;
    // b waits for a's slot: let every queued callback run, then check it has not opened.
    await new Promise((r) => setImmediate(r));
    expect(opened).toEqual(['a']);
    a.release();
    await b.gate;
    expect(opened).toEqual(['a', 'b']);
    b.release();
  });

  it('gives back at once a slot released before it was granted', async () => {
    const slots = pLimit(1);
    const first = holdSlot(slots);
    const early = holdSlot(slots);
    early.release();
    const last = holdSlot(slots);
    first.release();
    await last.gate;
    expect(slots.activeCount).toBe(1);
    last.release();
  });

  it('lets twice the slots get ready', () => {
    expect(readyAhead(2)).toBe(4);
    expect(readyAhead(0)).toBe(2);
  });
});
