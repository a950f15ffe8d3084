/**
 * The evaluation queue on its own: debounce folding, stale runs aborted, absorbed names, the
 * concurrency cap, `flush` and `close`. Debounce windows are ended with `flush`, never by
 * waiting: the default window here is an hour.
 */
import { describe, expect, it } from 'vitest';
import { EvaluationQueue } from '../../src/app/evaluations/evaluation-queue.ts';

interface Item {
  id: string;
  matrix?: string;
}

/** A queue whose runs wait for `finish(id)` (or their abort), recording what ran. */
function harness(
  opts: { concurrency?: number; waitUntil?: (item: Item) => Promise<number | undefined> } = {},
) {
  const started: Array<{ item: Item; signal: AbortSignal; releaseSlot: () => void }> = [];
  const finishers = new Map<string, () => void>();
  const dropped: Item[] = [];
  const startWaiters: Array<{ n: number; resolve: () => void }> = [];
  const queue = new EvaluationQueue<Item>({
    concurrency: opts.concurrency ?? 2,
    debounceMs: 3_600_000,
    merge: (w, n) => ({ ...n, matrix: n.matrix ?? w.matrix }),
    run: (item, signal, releaseSlot) => {
      started.push({ item, signal, releaseSlot });
      for (const w of startWaiters.filter((x) => started.length >= x.n)) {
        startWaiters.splice(startWaiters.indexOf(w), 1);
        w.resolve();
      }
      return new Promise<void>((resolve) => {
        finishers.set(item.id, resolve);
        signal.addEventListener('abort', () => resolve());
      });
    },
    onDrop: (item) => dropped.push(item),
    ...(opts.waitUntil ? { waitUntil: opts.waitUntil } : {}),
  });
  const waitStarted = (n: number) =>
    started.length >= n
      ? Promise.resolve()
      : new Promise<void>((resolve) => startWaiters.push({ n, resolve }));
  return { queue, started, dropped, waitStarted, finish: (id: string) => finishers.get(id)?.() };
}

/** One slot, sets x and y ready: resolves once the first of them has started. */
async function oneSlotTwoReady() {
  const h = harness({ concurrency: 1 });
  h.queue.push('x', { id: 'x' });
  h.queue.push('y', { id: 'y' });
  h.queue.flush();
  await h.waitStarted(1);
  return h;
}

describe('EvaluationQueue', () => {
  it('folds requests for one set within the debounce window into one run', async () => {
    const h = harness();
    h.queue.push('set', { id: 'a' });
    h.queue.push('set', { id: 'b', matrix: 'full' });
    h.queue.push('set', { id: 'c' });
    expect(h.started).toHaveLength(0);
    h.queue.flush();
    await h.waitStarted(1);
    h.finish('c');
    await h.queue.idle();
    expect(h.started.map((s) => s.item)).toEqual([{ id: 'c', matrix: 'full' }]);
  });

  it('starts an item pushed with no delay without a flush', async () => {
    const h = harness();
    h.queue.push('set', { id: 'resumed' }, { delayMs: 0 });
    await h.waitStarted(1);
    h.finish('resumed');
    await h.queue.idle();
    expect(h.started.map((s) => s.item.id)).toEqual(['resumed']);
  });

  it('aborts a running evaluation when a newer request for its set arrives', async () => {
    const h = harness();
    h.queue.push('set', { id: 'old' });
    h.queue.flush();
    await h.waitStarted(1);
    h.queue.push('set', { id: 'new' });
    expect(h.started[0]!.signal.aborted).toBe(true);
    h.queue.flush();
    await h.waitStarted(2);
    h.finish('new');
    await h.queue.idle();
    expect(h.started.map((s) => [s.item.id, s.signal.aborted])).toEqual([
      ['old', true],
      ['new', false],
    ]);
  });

  it('absorbs a waiting request made under another name of the same set', async () => {
    const h = harness();
    h.queue.push('b', { id: 'first' });
    h.queue.push('a', { id: 'second' }, { absorb: ['a', 'b'] });
    h.queue.flush();
    await h.waitStarted(1);
    h.finish('second');
    await h.queue.idle();
    expect(h.dropped).toEqual([{ id: 'first' }]);
    expect(h.started.map((s) => s.item.id)).toEqual(['second']);
  });

  it('runs at most `concurrency` sets at once', async () => {
    const h = await oneSlotTwoReady();
    // Both are ready; the second starts only when the first returns.
    expect(h.started).toHaveLength(1);
    expect(h.queue.size).toBe(2);
    h.finish(h.started[0]!.item.id);
    await h.waitStarted(2);
    h.finish(h.started[1]!.item.id);
    await h.queue.idle();
    expect(h.started.map((s) => s.item.id).sort()).toEqual(['x', 'y']);
  });

  it('a run that released its slot lets the next start, and still counts until it returns', async () => {
    const h = await oneSlotTwoReady();
    const first = h.started[0]!;
    // Its check conclusions are in; only its comments still wait.
    first.releaseSlot();
    first.releaseSlot();
    await h.waitStarted(2);
    expect(h.queue.size).toBe(2);
    // Still abortable by a newer request for its set, as a running item is.
    h.queue.push(first.item.id, { id: `${first.item.id}2` });
    expect(first.signal.aborted).toBe(true);
    h.queue.flush();
    // A second release did not free another slot: the newer request waits for the second run.
    await Promise.resolve();
    expect(h.started).toHaveLength(2);
    h.finish(h.started[1]!.item.id);
    await h.waitStarted(3);
    h.finish(h.started[2]!.item.id);
    await h.queue.idle();
    expect(h.started.map((s) => s.item.id)).toEqual([
      first.item.id,
      h.started[1]!.item.id,
      `${first.item.id}2`,
    ]);
  });

  it('close aborts running items, waits until their runs returned, and drops waiting ones', async () => {
    const events: string[] = [];
    let started: () => void = () => {};
    const aStarted = new Promise<void>((r) => {
      started = r;
    });
    const queue = new EvaluationQueue<string>({
      concurrency: 1,
      debounceMs: 3_600_000,
      run: (item, signal) =>
        new Promise<void>((resolve) => {
          events.push(`start ${item}`);
          started();
          // The run takes a few turns to wind down after its abort, as a real one does.
          signal.addEventListener('abort', () =>
            setImmediate(() => {
              events.push(`stopped ${item}`);
              resolve();
            }),
          );
        }),
    });
    queue.push('a', 'a', { delayMs: 0 });
    queue.push('b', 'b');
    await aStarted;
    expect(events).toEqual(['start a']);
    await queue.close();
    events.push('closed');
    expect(events).toEqual(['start a', 'stopped a', 'closed']);
    expect(queue.size).toBe(0);
    // A closed queue takes nothing new.
    queue.push('c', 'c', { delayMs: 0 });
    expect(queue.size).toBe(0);
  });

  it('asks `waitUntil` when a window ends: a later time extends it (a request folded in at another replica)', async () => {
    const asked: Array<{ item: Item; answer: (until: number | undefined) => void }> = [];
    let askedNow: () => void = () => {};
    const h = harness({
      concurrency: 4,
      waitUntil: (item) =>
        new Promise((answer) => {
          asked.push({ item, answer });
          askedNow();
        }),
    });
    const nextAsk = () => new Promise<void>((ok) => (askedNow = ok));
    let ask = nextAsk();
    h.queue.push('x', { id: 'x' }, { delayMs: 0 });
    await ask;
    // Another replica folded a request into x's row: its window lasts another hour.
    asked[0]!.answer(Date.now() + 3_600_000);
    await new Promise((r) => setImmediate(r));
    expect(h.started).toHaveLength(0);
    expect(h.queue.waiting('x')).toEqual({ id: 'x' });
    h.queue.flush();
    await h.waitStarted(1);
    // Nothing folded in since: the window is over, the run starts.
    ask = nextAsk();
    h.queue.push('y', { id: 'y' }, { delayMs: 0 });
    await ask;
    asked[1]!.answer(Date.now() - 1);
    await h.waitStarted(2);
    expect(h.started.map((s) => s.item.id)).toEqual(['x', 'y']);
    // An answer for a window a newer request replaced is ignored: the newer one's is asked.
    ask = nextAsk();
    h.queue.push('z', { id: 'z' }, { delayMs: 0 });
    await ask;
    ask = nextAsk();
    h.queue.push('z', { id: 'z', matrix: 'full' }, { delayMs: 0 });
    asked[2]!.answer(undefined);
    await ask;
    await new Promise((r) => setImmediate(r));
    expect(h.started).toHaveLength(2);
    asked[3]!.answer(undefined);
    await h.waitStarted(3);
    expect(h.started[2]!.item).toEqual({ id: 'z', matrix: 'full' });
    // A resumed item (`extendable: false`) is not asked.
    h.queue.push('w', { id: 'w' }, { delayMs: 0, extendable: false });
    await h.waitStarted(4);
    expect(asked).toHaveLength(4);
  });
});
