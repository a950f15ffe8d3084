/**
 * `/tandem merge` across App replicas, over HTTP to the GitHub stand-in, on two stores opened on
 * one database: two sets entering the linked-set queue at once from two replicas get two
 * numbers (queue-command.ts); and a member-by-member merge (merge-set.ts) that read "not merged"
 * just before another replica merged the set says it is merged instead of starting over. The
 * interleavings are forced: each replica waits at its store write for the other's event.
 */
import { describe, expect, it } from 'vitest';
import { mergeLinkedSet } from '../../src/app/merge-command/merge-set.ts';
import { enqueueLinkedSet } from '../../src/app/merge-command/queue-command.ts';
import type { SetQueueRunner } from '../../src/app/merge-command/queue-runner.ts';
import { octokitPort } from '../../src/app/port/octokit-port.ts';
import type { Store } from '../../src/app/store/store.ts';
import { firstCall, holdUntil } from '../helpers/replica-race.ts';
import type { StandIn } from '../support/github-standin/index.ts';
import { STORE_BACKENDS, standInClient, useStandIn, useTempStore } from './app-fixtures.ts';

const use = useStandIn('tandem-replica-merges-');
const log = { warn: () => {} };
const HEAD = 'a'.repeat(40);
const INSTALLATION = 7;

/** acme/schema#1 and acme/api#1, open on `main`, writable by `writer`, stored in `s`. */
async function twoPulls(standIn: StandIn, s: Store, linked: boolean): Promise<void> {
  for (const repo of ['schema', 'api'] as const) {
    standIn.addRepo({ owner: 'acme', name: repo });
    standIn.setPermission('acme', repo, 'writer', 'write');
    standIn.addPullRequest({
      owner: 'acme',
      repo,
      title: repo,
      body: '',
      headRef: 'feature',
      headSha: HEAD,
      baseRef: 'main',
      baseSha: 'b'.repeat(40),
    });
    await s.pulls.upsert({
      owner: 'acme',
      repo,
      number: 1,
      installationId: INSTALLATION,
      state: 'open',
      headSha: HEAD,
      headRef: 'feature',
      baseRef: 'main',
      links: linked && repo === 'api' ? [{ owner: 'acme', repo: 'schema', number: 1 }] : [],
    });
  }
}

describe.each(STORE_BACKENDS)('merge commands across replicas on %s', (backend) => {
  const temp = useTempStore('tandem-replica-merges-', backend);

  it('numbers two sets queued at once on two replicas apart', async () => {
    const standIn = await use.start();
    const [a, b] = [await temp.open(), await temp.open()];
    await twoPulls(standIn, a, false);
    // The queue's own steps are not what is raced here.
    const runner = { step: async () => {} } as unknown as SetQueueRunner;
    const enqueue = (s: Store, seed: string) =>
      enqueueLinkedSet(
        runner,
        s,
        standInClient(standIn),
        { seed, linked: [seed], requestedBy: 'writer', installationId: INSTALLATION },
        log,
      );
    // Replica a writes its item only once replica b is writing its own (both have decided).
    holdUntil(a.setQueue, 'addItem', firstCall(b.setQueue, 'addItem'));
    const results = await Promise.all([enqueue(a, 'acme/schema#1'), enqueue(b, 'acme/api#1')]);
    expect(results).toEqual(['queued', 'queued']);
    // Which of the two takes the table first is the database's choice; that they get two numbers is not.
    const items = await a.setQueue.activeItems(INSTALLATION);
    expect(items.map((i) => i.id).sort()).toEqual(['q1', 'q2']);
    expect(items.map((i) => i.seed).sort()).toEqual(['acme/api#1', 'acme/schema#1']);
  }, 20_000);

  it('does not start a merge over when another replica merged the set meanwhile', async () => {
    const standIn = await use.start();
    const [a, b] = [await temp.open(), await temp.open()];
    await twoPulls(standIn, a, true);
    const id = await a.evaluations.create({
      setKey: 'acme/api#1',
      seed: 'acme/api#1',
      installationId: INSTALLATION,
      matrix: null,
    });
    await a.evaluations.start(id);
    await a.evaluations.setMembers(id, [
      { key: 'acme/api#1', headSha: HEAD },
      { key: 'acme/schema#1', headSha: HEAD },
    ]);
    await a.evaluations.recordVerdict(id, { outcome: 'resolved', mergeOrder: ['acme/schema', 'acme/api'] });
    await a.evaluations.publish(id);
    const req = { seed: 'acme/api#1', linked: ['acme/api#1', 'acme/schema#1'], requestedBy: 'writer' };
    // Replica b has read the set's attempts; it goes on only once replica a merged the set.
    let aMerged = () => {};
    holdUntil(b.merges, 'start', new Promise<void>((ok) => (aMerged = ok)));
    const bReached = firstCall(b.merges, 'start');
    const onB = mergeLinkedSet(b, octokitPort(standInClient(standIn)), req, log);
    await bReached;
    expect(await mergeLinkedSet(a, octokitPort(standInClient(standIn)), req, log)).toBe('done');
    aMerged();
    expect(await onB).toBe('done');
    expect(await b.merges.latest(id)).toMatchObject({ state: 'merged' });
    const comment = standIn
      .comments('acme', 'api', 1)
      .map((c) => c.body ?? '')
      .find((body) => body.includes('<!-- tandem:merge -->'));
    expect(comment).toMatch(/merged/i);
    expect(comment).not.toMatch(/refused|not open/i);
  }, 20_000);
});
