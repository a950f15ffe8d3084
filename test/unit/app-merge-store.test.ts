/**
 * What `/tandem merge` keeps in the App's store (real SQLite and real PostgreSQL): the verdict an evaluation
 * published and its merge order, the newest evaluation covering a set, and merge attempts — one
 * running per evaluation, steps on record, what earlier attempts merged, and attempts a restart
 * finds running marked interrupted.
 */
import { describe, expect, it } from 'vitest';
import { IllegalTransitionError } from '../../src/app/store/evaluation-states.ts';
import type { Store } from '../../src/app/store/store.ts';
import { publishedEvaluation, STORE_BACKENDS, useTempStore } from './app-fixtures.ts';

const A = 'a'.repeat(40);

function published(store: Store, members: string[], outcome: 'resolved' | 'unresolved') {
  return publishedEvaluation(store, { outcome, mergeOrder: ['acme/schema', 'acme/api'] }, members);
}

describe.each(STORE_BACKENDS)('store: merges and verdicts on %s', (backend) => {
  const temp = useTempStore('tandem-merge-store-', backend);

  it('keeps the verdict and merge order, and finds the newest evaluation covering a set', async () => {
    const store = await temp.open();
    const first = await published(store, ['acme/api#1', 'acme/schema#1'], 'unresolved');
    const second = await published(store, ['acme/api#1', 'acme/schema#1'], 'resolved');
    await published(store, ['acme/web#5'], 'resolved');
    expect(await store.evaluations.verdict(first)).toEqual({
      outcome: 'unresolved',
      mergeOrder: ['acme/schema', 'acme/api'],
    });
    expect((await store.evaluations.latestCovering(['acme/schema#1']))?.id).toBe(second);
    // A queued evaluation has no members yet: its seed names it.
    const queued = await store.evaluations.create({
      setKey: 'acme/api#1',
      seed: 'acme/api#1',
      installationId: 1,
      matrix: null,
    });
    expect((await store.evaluations.latestCovering(['acme/schema#1', 'acme/api#1']))?.id).toBe(queued);
    expect(await store.evaluations.latestCovering(['acme/none#1'])).toBeUndefined();
    // Superseded (taken over, or the set was gone before it ran): the one before it counts.
    await store.evaluations.supersede(queued);
    expect((await store.evaluations.latestCovering(['acme/api#1']))?.id).toBe(second);
    // A verdict belongs to a running evaluation only.
    await expect(
      store.evaluations.recordVerdict(queued, { outcome: 'resolved', mergeOrder: [] }),
    ).rejects.toThrow(IllegalTransitionError);
  });

  it('runs one attempt per evaluation at a time, and remembers what earlier attempts merged', async () => {
    const store = await temp.open();
    const ev = await published(store, ['acme/schema#1', 'acme/api#1'], 'resolved');
    const started = await store.merges.start(ev, 'alice');
    const first = 'started' in started ? started.started : undefined;
    expect(first).toBeTypeOf('number');
    expect(await store.merges.start(ev, 'bob')).toEqual({ running: true });
    await store.merges.update(first!, 'partial', [
      { key: 'acme/schema#1', headSha: A, result: 'merged', mergeSha: 'c'.repeat(40) },
      { key: 'acme/api#1', headSha: A, result: 'refused', reason: 'ci failing' },
    ]);
    const restarted = await store.merges.start(ev, 'bob');
    const second = 'started' in restarted ? restarted.started : undefined;
    expect(second).toBeGreaterThan(first!);
    expect(await store.merges.latest(ev)).toMatchObject({
      id: second,
      state: 'running',
      requestedBy: 'bob',
      steps: [],
    });
    expect([...(await store.merges.mergedBefore(ev))]).toEqual([['acme/schema#1', 'c'.repeat(40)]]);

    // A restart finds the second attempt running: it is over, and a new one may start.
    expect(await store.merges.interruptRunning()).toBe(1);
    expect((await store.merges.latest(ev))?.state).toBe('interrupted');
    const third = await store.merges.start(ev, 'carol');
    expect(third).toMatchObject({ started: expect.any(Number) });
    // Once an attempt merged the set, no other starts: the merged attempt is the answer.
    await store.merges.update((third as { started: number }).started, 'merged', []);
    expect(await store.merges.start(ev, 'dave')).toMatchObject({ merged: { requestedBy: 'carol' } });
  });
});
