/**
 * The linked-set queue in the App's database (issue 28, both backends): the logic's state, the items and the
 * speculative evaluations outlive the process, so a restart mid-queue resumes — an evaluation
 * left running is found again, and an item keeps its members, check runs and status.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { STORE_BACKENDS, useTempStore } from './app-fixtures.ts';

const member = (pull: string, headSha: string) => ({
  pull,
  repo: pull.slice(0, pull.indexOf('#')),
  baseBranch: 'main',
  headSha,
  viaMergeQueue: false,
});

describe.each(STORE_BACKENDS)('store.setQueue on %s', (backend) => {
  const temp = useTempStore('tandem-set-queue-', backend);

  it('keeps the queue state, items and running evaluations across a restart', async () => {
    const first = await temp.open();
    await first.setQueue.saveState(3, { items: ['q1'], lanes: { x: 1 } });
    const id = await first.setQueue.addItem({
      installationId: 3,
      seed: 'acme/api#1',
      requestedBy: 'alice',
      members: [member('acme/schema#1', 'a'.repeat(40)), member('acme/api#1', 'b'.repeat(40))],
    });
    expect(id).toBe('q1');
    await first.setQueue.setCheckRun('q1', 'acme/api#1', 77);
    const run = { itemId: 'q1', ahead: ['q0'], attempt: 0, diagnostic: null };
    await first.setQueue.startRun({
      ...run,
      tested: [{ repo: 'acme/api', baseBranch: 'main', base: 'c', sha: 'd' }],
    });
    await first.close();

    const second = await temp.open();
    expect(await second.setQueue.state(3)).toEqual({ items: ['q1'], lanes: { x: 1 } });
    expect(await second.setQueue.installations()).toEqual([3]);
    expect((await second.setQueue.activeItemOf('acme/schema#1'))?.id).toBe('q1');
    expect(await second.setQueue.item('q1')).toMatchObject({
      status: 'queued',
      checkRuns: { 'acme/api#1': 77 },
    });
    expect(await second.setQueue.runningRuns()).toEqual([
      { ...run, tested: [{ repo: 'acme/api', baseBranch: 'main', base: 'c', sha: 'd' }], state: 'running' },
    ]);
    // The result is kept; the newest passing evaluation is what lands.
    await second.setQueue.finishRun(run, 'done', { outcome: 'pass' });
    expect(await second.setQueue.runningRuns()).toEqual([]);
    expect((await second.setQueue.lastPass('q1'))?.tested[0]?.sha).toBe('d');
    await second.setQueue.setStatus('q1', 'evicted', 'fails');
    expect(await second.setQueue.activeItemOf('acme/schema#1')).toBeUndefined();
    expect((await second.setQueue.item('q1'))?.reason).toBe('fails');
  });

  it('numbers items queued at once from two replicas apart, and queues one set once', async () => {
    const [a, b] = [await temp.open(), await temp.open()];
    const item = (pull: string) => ({
      installationId: 3,
      seed: pull,
      requestedBy: 'alice',
      members: [member(pull, 'a'.repeat(40))],
    });
    const ids = await Promise.all([
      a.setQueue.addItem(item('acme/api#1')),
      b.setQueue.addItem(item('acme/web#1')),
    ]);
    expect(ids.sort()).toEqual(['q1', 'q2']);
    const again = await Promise.all([
      a.setQueue.addItem(item('acme/cli#1')),
      b.setQueue.addItem(item('acme/cli#1')),
    ]);
    expect(again.filter((id) => id !== undefined)).toEqual(['q3']);
    expect((await a.setQueue.activeItems(3)).map((i) => i.id).sort()).toEqual(['q1', 'q2', 'q3']);
  });

  it('keeps every step of two replicas stepping one queue at once', async () => {
    const [a, b] = [await temp.open(), await temp.open()];
    const count = z.object({ n: z.number() });
    const bump = (s: { setQueue: typeof a.setQueue }) =>
      s.setQueue.update(3, (stored) => {
        const n = (count.safeParse(stored).data?.n ?? 0) + 1;
        return { state: { n }, out: n };
      });
    const seen = await Promise.all(Array.from({ length: 10 }, (_, i) => bump(i % 2 ? a : b)));
    expect(seen.sort((x, y) => x - y)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(await b.setQueue.state(3)).toEqual({ n: 10 });
    expect(await a.setQueue.installations()).toEqual([3]);
  });
});
