/**
 * One `Tandem` check per merge group across App replicas (merge-group-gate.ts): two gates on two
 * stores opened on one database are asked about the same group at once (the webhook reaching
 * both), each through its own client of the GitHub stand-in over HTTP. The stand-in ends with
 * one check on the group's head, completed; nothing is left stored.
 */
import { describe, expect, it } from 'vitest';
import { OrgConfigCache } from '../../src/app/evaluations/org-config-cache.ts';
import { MergeGroupGate } from '../../src/app/merge-queue/merge-group-gate.ts';
import { octokitPort } from '../../src/app/port/octokit-port.ts';
import type { Store } from '../../src/app/store/store.ts';
import type { MergeGroup } from '../../src/core/merge-group.schema.ts';
import type { StandIn } from '../support/github-standin/index.ts';
import { STORE_BACKENDS, standInClient, useStandIn, useTempStore } from './app-fixtures.ts';

const use = useStandIn('tandem-replica-groups-');
const log = { info: () => {}, warn: () => {}, error: () => {} };
const HEAD = 'e'.repeat(40);

function gateOn(store: Store, standIn: StandIn): MergeGroupGate {
  return new MergeGroupGate({
    store,
    executor: { run: () => Promise.reject(new Error('no group reaches the executor in this test')) },
    configs: new OrgConfigCache({ ttlMs: 60_000 }),
    github: async () => octokitPort(standInClient(standIn)),
    log,
    concurrency: 1,
  });
}

describe.each(STORE_BACKENDS)('merge groups across replicas on %s', (backend) => {
  const temp = useTempStore('tandem-replica-groups-', backend);

  it('puts one check on a group both replicas are asked about', async () => {
    const standIn = await use.start();
    standIn.addRepo({ owner: 'acme', name: 'api' });
    const group: MergeGroup = {
      owner: 'acme',
      repo: 'api',
      installationId: standIn.installationId('acme'),
      headSha: HEAD,
      headRef: `refs/heads/gh-readonly-queue/main/pr-5-${'f'.repeat(40)}`,
      baseSha: 'c'.repeat(40),
      baseBranch: 'main',
      pullNumber: 5,
    };
    const [storeA, storeB] = [await temp.open(), await temp.open()];
    const [a, b] = [gateOn(storeA, standIn), gateOn(storeB, standIn)];
    await Promise.all([a.request(group), b.request(group)]);
    await Promise.all([a.idle(), b.idle()]);
    const checks = standIn.checkRuns('acme', 'api', HEAD);
    expect(checks.map((c) => [c.status, c.conclusion])).toEqual([['completed', 'neutral']]);
    expect((await storeB.mergeGroups.all()).open).toEqual([]);
    await Promise.all([a.close(), b.close()]);
  }, 20_000);
});
