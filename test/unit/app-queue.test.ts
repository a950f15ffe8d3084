import { describe, expect, it } from 'vitest';
import { EvaluationQueue } from '../../src/app/queue.ts';

interface Item {
  id: string;
  matrix?: string;
}

/** A queue whose runs wait for `finish(id)` (or their abort), recording what ran. */
function harness(opts: { debounceMs?: number; concurrency?: number } = {}) {
  const started: Array<{ item: Item; signal: AbortSignal }> = [];
  const finishers = new Map<string, () => void>();
  const dropped: Item[] = [];
  const queue = new EvaluationQueue<Item>({
    concurrency: opts.concurrency ?? 2,
    debounceMs: opts.debounceMs ?? 20,
    merge: (w, n) => ({ ...n, matrix: n.matrix ?? w.matrix }),
    run: (item, signal) => {
      started.push({ item, signal });
      return new Promise<void>((resolve) => {
        finishers.set(item.id, resolve);
        signal.addEventListener('abort', () => resolve());
      });
    },
    onDrop: (item) => dropped.push(item),
  });
  const waitStarted = async (n: number) => {
    while (started.length < n) await new Promise((r) => setTimeout(r, 5));
  };
  return { queue, started, dropped, waitStarted, finish: (id: string) => finishers.get(id)?.() };
}

describe('EvaluationQueue', () => {
  it('folds requests for one set within the debounce window into one run', async () => {
    const h = harness();
    h.queue.push('set', { id: 'a' });
    h.queue.push('set', { id: 'b', matrix: 'full' });
    h.queue.push('set', { id: 'c' });
    await h.waitStarted(1);
    h.finish('c');
    await h.queue.idle();
    expect(h.started.map((s) => s.item)).toEqual([{ id: 'c', matrix: 'full' }]);
  });

  it('aborts a running evaluation when a newer request for its set arrives', async () => {
    const h = harness();
    h.queue.push('set', { id: 'old' });
    await h.waitStarted(1);
    h.queue.push('set', { id: 'new' });
    expect(h.started[0]!.signal.aborted).toBe(true);
    await h.waitStarted(2);
    h.finish('new');
    await h.queue.idle();
    expect(h.started.map((s) => [s.item.id, s.signal.aborted])).toEqual([
      ['old', true],
      ['new', false],
    ]);
  });

  it('absorbs a waiting request made under another name of the same set', async () => {
    const h = harness({ debounceMs: 50 });
    h.queue.push('b', { id: 'first' });
    h.queue.push('a', { id: 'second' }, { absorb: ['a', 'b'] });
    await h.waitStarted(1);
    h.finish('second');
    await h.queue.idle();
    expect(h.dropped).toEqual([{ id: 'first' }]);
    expect(h.started.map((s) => s.item.id)).toEqual(['second']);
  });

  it('runs at most `concurrency` sets at once', async () => {
    const h = harness({ concurrency: 1 });
    h.queue.push('x', { id: 'x' });
    h.queue.push('y', { id: 'y' });
    await h.waitStarted(1);
    await new Promise((r) => setTimeout(r, 60));
    expect(h.started).toHaveLength(1);
    h.finish(h.started[0]!.item.id);
    await h.waitStarted(2);
    h.finish(h.started[1]!.item.id);
    await h.queue.idle();
    expect(h.started.map((s) => s.item.id).sort()).toEqual(['x', 'y']);
  });
});
