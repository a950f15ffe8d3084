/**
 * Queue order in the App's database on both backends: items queued in the same millisecond stay
 * in the order they were queued, after the first one's row is updated (it starts landing). On
 * PostgreSQL `ORDER BY created_at` alone returned them in heap order, and an updated row moves to
 * the heap's end: the later set came first, ahead of the set it was queued behind.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { STORE_BACKENDS, useTempStore } from './app-fixtures.ts';

const item = (id: string) => ({
  id,
  installationId: 3,
  seed: `acme/api#${id}`,
  requestedBy: 'alice',
  members: [],
});

afterEach(() => {
  vi.restoreAllMocks();
});

describe.each(STORE_BACKENDS)('store.setQueue order on %s', (backend) => {
  const temp = useTempStore('tandem-queue-order-', backend);

  it('keeps items queued in one millisecond in their order once the first is landing', async () => {
    const store = await temp.open();
    vi.spyOn(Date, 'now').mockReturnValue(1_700_000_000_000);
    for (const id of ['q1', 'q2', 'q3']) await store.setQueue.addItem(item(id));
    await store.setQueue.setStatus('q1', 'landing');
    expect((await store.setQueue.activeItems(3)).map((i) => i.id)).toEqual(['q1', 'q2', 'q3']);
    await store.close();
  });
});
