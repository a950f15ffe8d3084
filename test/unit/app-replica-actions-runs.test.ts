/**
 * An evaluation handed to GitHub Actions, observed by two App replicas (actions-executor.ts):
 * two stores opened on one database, each replica's executor with its own client of the GitHub
 * stand-in over HTTP. A late `in_progress` event read by one replica before the other recorded
 * the run `completed` must not take the run back to `in_progress` (the waiting evaluation would
 * miss its completion): forced, the late replica writes only after the other is done. A
 * `workflow_run` delivery is claimed in the transaction that records its run: the database
 * refusing the record leaves it unclaimed, and the same delivery then records it once.
 */
import { describe, expect, it } from 'vitest';
import { CheckRunRegistry } from '../../src/app/evaluations/check-run-registry.ts';
import { ActionsExecutor } from '../../src/app/executors/actions-executor.ts';
import { octokitPort } from '../../src/app/port/octokit-port.ts';
import type { Store } from '../../src/app/store/store.ts';
import { firstCall, holdUntil } from '../helpers/replica-race.ts';
import { armStoreFault } from '../helpers/store-fault.ts';
import type { StandIn } from '../support/github-standin/index.ts';
import {
  addApiPull,
  runningEvaluation,
  STORE_BACKENDS,
  standInClient,
  useStandIn,
  useTempStore,
} from './app-fixtures.ts';

const use = useStandIn('tandem-replica-actions-');
const log = { info: () => {}, warn: () => {} };
const HEAD = 'c'.repeat(40);

function executorOn(store: Store, standIn: StandIn): ActionsExecutor {
  return new ActionsExecutor({
    store,
    fallback: { run: () => Promise.reject(new Error('no change runs locally in this test')) },
    github: async () => octokitPort(standInClient(standIn)),
    log,
  });
}

/** A hand-off of a running evaluation of acme/api's PR, dispatched now, and its run as GitHub shows it. */
async function handedOff(store: Store, standIn: StandIn) {
  standIn.addRepo({ owner: 'acme', name: 'api' });
  const pr = addApiPull(standIn, HEAD, 'b'.repeat(40));
  const key = `acme/api#${pr.number}`;
  const id = await runningEvaluation(store, [key], { headSha: HEAD });
  const checkRunId = await new CheckRunRegistry(store).ensure(
    octokitPort(standInClient(standIn)),
    key,
    HEAD,
    id,
  );
  const dispatchedAt = Date.now();
  await store.handoffs.save({
    evaluationId: id,
    evaluator: 'acme/suites',
    workflow: 'tandem.yml',
    heads: [`${key}@${HEAD}`],
    dispatchedAt,
  });
  const run = (status: string, conclusion: string | null) => ({
    id: 501,
    title: `Tandem #${id} ${key}`,
    path: '.github/workflows/tandem.yml',
    url: 'https://github.test/acme/suites/actions/runs/501',
    status,
    conclusion,
    createdAt: new Date(dispatchedAt).toISOString(),
  });
  return { id, checkRunId, run };
}

describe.each(STORE_BACKENDS)('a workflow run observed by two replicas on %s', (backend) => {
  const temp = useTempStore('tandem-replica-actions-', backend);

  it("claims a delivery with its run's record: refused, nothing is claimed; sent again, it is recorded once", async () => {
    const standIn = await use.start();
    const store = await temp.open();
    const { id, run } = await handedOff(store, standIn);
    const executor = executorOn(store, standIn);
    const delivery = { id: 'run-delivery-1', event: 'workflow_run.completed' };
    const claim = (tx: Store) => tx.deliveries.claim(delivery.id, delivery.event);
    const fault = await armStoreFault(store, 'actions_handoffs', 'UPDATE');
    await expect(executor.observeRun('acme/suites', run('completed', 'success'), claim)).rejects.toThrow(
      'injected fault',
    );
    expect(await store.deliveries.seen(delivery.id)).toBe(false);
    expect((await store.handoffs.get(id))?.run).toBeUndefined();
    await fault(false);
    expect(await executor.observeRun('acme/suites', run('completed', 'success'), claim)).toBe(true);
    expect(await store.deliveries.seen(delivery.id)).toBe(true);
    expect((await store.handoffs.get(id))?.run).toMatchObject({ status: 'completed', conclusion: 'success' });
    // The same delivery once more (another replica, a redelivery): claimed already, nothing recorded.
    expect(await executor.observeRun('acme/suites', run('completed', 'success'), claim)).toBe(false);
    await executor.close();
  }, 20_000);

  it('stays completed when a late in-progress event reaches the other replica', async () => {
    const standIn = await use.start();
    const [a, b] = [await temp.open(), await temp.open()];
    const { id, checkRunId, run } = await handedOff(a, standIn);
    const [onA, onB] = [executorOn(a, standIn), executorOn(b, standIn)];
    expect(await onA.observeRun('acme/suites', run('in_progress', null))).toBe(true);
    // The check links the run (the first time a run is seen).
    const [check] = standIn.checkRuns('acme', 'api', HEAD);
    expect([check?.id, check?.status, check?.details_url]).toEqual([
      checkRunId,
      'in_progress',
      run('', null).url,
    ]);

    // Replica b has read the hand-off for a late `in_progress`; it writes once a recorded `completed`.
    let aDone = () => {};
    holdUntil(b.handoffs, 'recordRun', new Promise<void>((ok) => (aDone = ok)));
    const bWrites = firstCall(b.handoffs, 'recordRun');
    const late = onB.observeRun('acme/suites', run('in_progress', null));
    await bWrites;
    expect(await onA.observeRun('acme/suites', run('completed', 'success'))).toBe(true);
    aDone();
    const lateSeen = await late;
    expect((await a.handoffs.get(id))?.run).toMatchObject({ status: 'completed', conclusion: 'success' });
    expect(lateSeen).toBe(false);
    await Promise.all([onA.close(), onB.close()]);
  }, 20_000);
});
