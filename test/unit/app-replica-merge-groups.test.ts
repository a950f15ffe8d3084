/**
 * One `Tandem` check per merge group across App replicas (merge-group-gate.ts): two gates on two
 * stores opened on one database are asked about the same group at once (the webhook reaching
 * both), each through its own client of the GitHub stand-in over HTTP. The stand-in ends with
 * one check on the group's head, completed; nothing is left stored. A group whose gating replica
 * died (its lease `merge-group:<key>` expired) is adopted by another replica's sweep (`adopt`),
 * which completes its check; one whose gate is alive (its lease lasts) is left to it.
 */
import { describe, expect, it } from 'vitest';
import { OrgConfigCache } from '../../src/app/evaluations/org-config-cache.ts';
import { mergeGroupLease } from '../../src/app/merge-queue/group-leases.ts';
import { MergeGroupGate } from '../../src/app/merge-queue/merge-group-gate.ts';
import { octokitPort } from '../../src/app/port/octokit-port.ts';
import { LeaseKeeper } from '../../src/app/replicas/lease-keeper.ts';
import type { Store } from '../../src/app/store/store.ts';
import { type MergeGroup, mergeGroupKey } from '../../src/core/merge-group.schema.ts';
import type { StandIn } from '../support/github-standin/index.ts';
import { STORE_BACKENDS, standInClient, useStandIn, useTempStore } from './app-fixtures.ts';

const use = useStandIn('tandem-replica-groups-');
const log = { info: () => {}, warn: () => {}, error: () => {} };
const HEAD = 'e'.repeat(40);

/** `holder`'s replica leases on `store`, as `index.ts` hands them to the gate. */
function leasesOn(store: Store, holder: string, ttlMs = 60_000) {
  const keeper = new LeaseKeeper({ leases: store.leases, holder, ttlMs });
  return { holder, ttlMs, tryHold: (name: string) => keeper.tryHold(name), keeper };
}

function groupOf(standIn: StandIn, pr: number): MergeGroup {
  return {
    owner: 'acme',
    repo: 'api',
    installationId: standIn.installationId('acme'),
    headSha: String(pr).repeat(40).slice(0, 40),
    headRef: `refs/heads/gh-readonly-queue/main/pr-${pr}-${'f'.repeat(40)}`,
    baseSha: 'c'.repeat(40),
    baseBranch: 'main',
    pullNumber: pr,
  };
}

function gateOn(store: Store, standIn: StandIn, leases?: ReturnType<typeof leasesOn>): MergeGroupGate {
  return new MergeGroupGate({
    ...(leases ? { leases } : {}),
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

  it("adopts the groups whose gate died, leaves a live gate's, and completes the adopted one's check", async () => {
    const standIn = await use.start();
    standIn.addRepo({ owner: 'acme', name: 'api' });
    const [dead, live] = [groupOf(standIn, 1), groupOf(standIn, 2)];
    const [storeA, storeB] = [await temp.open(), await temp.open()];
    // Replica A stored both; its lease on `dead` expired 10 s ago (A was killed), the other lasts.
    for (const g of [dead, live]) expect(await storeA.mergeGroups.open(mergeGroupKey(g), g)).toBe(true);
    expect(
      await storeA.leases.acquire(mergeGroupLease(mergeGroupKey(dead)), 'a', 1_000, Date.now() - 11_000),
    ).toBe(true);
    expect(await storeA.leases.acquire(mergeGroupLease(mergeGroupKey(live)), 'a', 60_000)).toBe(true);
    const leasesB = leasesOn(storeB, 'b');
    const b = gateOn(storeB, standIn, leasesB);
    expect(await b.adopt()).toBe(1);
    await b.idle();
    expect(standIn.checkRuns('acme', 'api', dead.headSha).map((c) => [c.status, c.conclusion])).toEqual([
      ['completed', 'neutral'],
    ]);
    expect(standIn.checkRuns('acme', 'api', live.headSha)).toEqual([]);
    expect((await storeB.mergeGroups.all()).open.map((o) => o.key)).toEqual([mergeGroupKey(live)]);
    // B gave the finished group's lease up; A's live one is still A's.
    expect(await storeB.leases.current(mergeGroupLease(mergeGroupKey(dead)))).toBeUndefined();
    expect((await storeB.leases.current(mergeGroupLease(mergeGroupKey(live))))?.holder).toBe('a');
    // A restarting gate with leases resumes only what no live replica gates: nothing here.
    expect(await b.resume()).toBe(0);
    await b.close();
    await leasesB.keeper.releaseAll();
  }, 20_000);

  it('holds the lease of a group it stores, from the transaction that stores it to its check', async () => {
    const standIn = await use.start();
    standIn.addRepo({ owner: 'acme', name: 'api' });
    const group = groupOf(standIn, 3);
    const store = await temp.open();
    const leases = leasesOn(store, 'a');
    const gate = gateOn(store, standIn, leases);
    const name = mergeGroupLease(mergeGroupKey(group));
    const held: Array<string | undefined> = [];
    // Asked while the gate works: when its check's id is stored, the group's lease is its holder's.
    const setCheckRun = store.mergeGroups.setCheckRun.bind(store.mergeGroups);
    store.mergeGroups.setCheckRun = async (key, id) => {
      held.push((await store.leases.current(name))?.holder);
      await setCheckRun(key, id);
    };
    await gate.request(group);
    await gate.idle();
    expect(held).toEqual(['a']);
    expect(await store.leases.current(name)).toBeUndefined();
    expect(standIn.checkRuns('acme', 'api', group.headSha).map((c) => c.status)).toEqual(['completed']);
    await gate.close();
  }, 20_000);
});
