/**
 * The linked-set queue's status across App replicas (queue-status.ts): two stores opened on one
 * database tell the same item's status at once, each through its own client of the GitHub
 * stand-in over HTTP. Forced: the first replica creates the merge comment only once the second
 * has begun (listed the comments, or waits for the PR's lease). The member ends with one merge
 * comment and one `Tandem queue` check.
 */
import { describe, expect, it } from 'vitest';
import { tellQueueStatus } from '../../src/app/merge-command/queue-status.ts';
import type { Store } from '../../src/app/store/store.ts';
import { firstCall } from '../helpers/replica-race.ts';
import { addApiPull, STORE_BACKENDS, standInClient, useStandIn, useTempStore } from './app-fixtures.ts';

const use = useStandIn('tandem-replica-queue-');
const log = { warn: () => {} };
const HEAD = 'c'.repeat(40);

describe.each(STORE_BACKENDS)('queue status across replicas on %s', (backend) => {
  const temp = useTempStore('tandem-replica-queue-', backend);

  it('makes one merge comment and one queue check when two replicas tell an item at once', async () => {
    const standIn = await use.start();
    standIn.addRepo({ owner: 'acme', name: 'api' });
    const pr = addApiPull(standIn, HEAD, 'b'.repeat(40));
    const key = `acme/api#${pr.number}`;
    const [a, b] = [await temp.open(), await temp.open()];
    const member = { pull: key, repo: 'acme/api', baseBranch: 'main', headSha: HEAD, viaMergeQueue: false };
    const queued = { id: 'q1', installationId: 7, seed: key, requestedBy: 'writer', members: [member] };
    await a.setQueue.addItem(queued as Parameters<Store['setQueue']['addItem']>[0]);
    const item = { id: 'q1', members: [member], checkRuns: {} };
    const [ghA, ghB] = [standInClient(standIn), standInClient(standIn)];
    let listed = () => {};
    const bListed = new Promise<void>((ok) => (listed = ok));
    ghB.hook.after('request', (_res, options) => {
      if (options.method === 'GET' && String(options.url).includes('/comments')) listed();
    });
    const bBegan = Promise.race([bListed, ...(b.leases ? [firstCall(b.leases, 'acquire')] : [])]);
    ghA.hook.before('request', async (options) => {
      if (options.method === 'POST' && String(options.url).includes('/comments')) await bBegan;
    });
    const view = { kind: 'queued' as const, position: 1, of: 1, waitingFor: 'its evaluation' };
    await Promise.all([tellQueueStatus(ghA, a, item, view, log), tellQueueStatus(ghB, b, item, view, log)]);
    const comments = standIn
      .comments('acme', 'api', pr.number)
      .filter((c) => c.body?.includes('tandem:merge'));
    expect(comments).toHaveLength(1);
    expect(standIn.checkRuns('acme', 'api', HEAD).filter((c) => c.name === 'Tandem queue')).toHaveLength(1);
  }, 20_000);
});
