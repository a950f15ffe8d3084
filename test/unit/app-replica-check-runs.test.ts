/**
 * One `Tandem` check run per head across App replicas (check-run-registry.ts): two registries on
 * two stores opened on one database ensure the same head at once, each through its own client of
 * the GitHub stand-in over HTTP. The second has read "no check yet" before the first stores its
 * id (forced: the first's create waits until the second has begun), and still the stand-in holds
 * one check, which both return.
 */
import { describe, expect, it } from 'vitest';
import { CheckRunRegistry } from '../../src/app/evaluations/check-run-registry.ts';
import { octokitPort } from '../../src/app/port/octokit-port.ts';
import { firstCall, holdUntil } from '../helpers/replica-race.ts';
import { addApiPull, STORE_BACKENDS, standInClient, useStandIn, useTempStore } from './app-fixtures.ts';

const use = useStandIn('tandem-replica-checks-');

describe.each(STORE_BACKENDS)('check runs across replicas on %s', (backend) => {
  const temp = useTempStore('tandem-replica-checks-', backend);

  it('creates one check when two replicas ensure the same head at once', async () => {
    const standIn = await use.start();
    standIn.addRepo({ owner: 'acme', name: 'api' });
    const head = 'c'.repeat(40);
    addApiPull(standIn, head, 'b'.repeat(40));
    const [storeA, storeB] = [await temp.open(), await temp.open()];
    const a = new CheckRunRegistry(storeA, { holder: 'replica-a' });
    const b = new CheckRunRegistry(storeB, { holder: 'replica-b' });
    const ghA = octokitPort(standInClient(standIn));
    const ghB = octokitPort(standInClient(standIn));
    // Replica b begins (its first store read) before replica a asks GitHub for the check.
    const bBegan = Promise.race([firstCall(storeB.checkRuns, 'get'), firstCall(storeB.leases, 'acquire')]);
    holdUntil(ghA, 'createQueuedCheck', bBegan);
    const [idA, idB] = await Promise.all([
      a.ensure(ghA, 'acme/api#1', head, null),
      b.ensure(ghB, 'acme/api#1', head, null),
    ]);
    expect(standIn.checkRuns('acme', 'api', head)).toHaveLength(1);
    expect(idB).toBe(idA);
    expect((await storeB.checkRuns.get('acme/api#1', head))?.checkRunId).toBe(idA);
    expect(await storeA.checkRuns.intents()).toEqual([]);
  }, 20_000);
});
