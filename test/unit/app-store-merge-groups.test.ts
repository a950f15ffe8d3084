/**
 * Open merge groups in the App's database (both backends): recorded on request, their check run added, gone
 * once completed, and still there for the next process after a restart; a row that no longer
 * parses is dropped instead of stopping the App.
 */
import { describe, expect, it } from 'vitest';
import type { MergeGroup } from '../../src/core/merge-group.schema.ts';
import { STORE_BACKENDS, useTempStore } from './app-fixtures.ts';

const group = (n: number): MergeGroup => ({
  owner: 'acme',
  repo: 'api',
  installationId: 3,
  headSha: String(n).repeat(40).slice(0, 40),
  headRef: `refs/heads/gh-readonly-queue/main/pr-${n}-${'c'.repeat(40)}`,
  baseSha: 'b'.repeat(40),
  baseBranch: 'main',
  pullNumber: n,
});

describe.each(STORE_BACKENDS)('store.mergeGroups on %s', (backend) => {
  const temp = useTempStore('tandem-merge-groups-', backend);

  it('keeps open groups across a restart until their check is completed', async () => {
    const first = await temp.open();
    await first.mergeGroups.open('g1', group(1));
    await first.mergeGroups.open('g2', { ...group(2), pullNumber: undefined });
    await first.mergeGroups.setCheckRun('g1', 41);
    // A second request for the same group keeps what the first recorded.
    await first.mergeGroups.open('g1', group(9));
    await first.close();

    const second = await temp.open();
    expect(await second.mergeGroups.all()).toEqual({
      open: [
        { key: 'g1', group: group(1), checkRunId: 41 },
        { key: 'g2', group: { ...group(2), pullNumber: undefined }, checkRunId: null },
      ],
      dropped: [],
    });
    await second.mergeGroups.close('g1');
    expect((await second.mergeGroups.all()).open.map((g) => g.key)).toEqual(['g2']);
  });

  it('drops a row that no longer parses', async () => {
    const store = await temp.open();
    await store.mergeGroups.open('good', group(1));
    const insert = 'INSERT INTO merge_groups (key, payload, check_run_id, created_at) VALUES (?, ?, NULL, ?)';
    await store.db.run(insert, ['bad', '{"owner":', Date.now()]);
    await store.db.run(insert, ['old', JSON.stringify({ owner: 'acme' }), Date.now() + 1]);
    expect(await store.mergeGroups.all()).toEqual({
      open: [{ key: 'good', group: group(1), checkRunId: null }],
      dropped: ['bad', 'old'],
    });
    expect((await store.mergeGroups.all()).dropped).toEqual([]);
  });
});
