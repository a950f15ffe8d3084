/**
 * The linked-set merge queue with the real engine (issue 28): the App over HTTP, the GitHub
 * stand-in with real bare git repositories, and every evaluation run in the Docker sandbox (the
 * hidden suite's node tests on the npm repositories built at run time). Sets: A = acme/schema#1 ←
 * acme/api#1; B = acme/api#2 ← acme/web#1. They share acme/api's `main`, so B is tested on top of
 * A — and B passes only there: alone, acme/schema lacks the `total` field the suite checks.
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeTempDir, removeTempDir } from '../helpers/git-fixtures.ts';
import {
  B_API,
  B_WEB,
  expectBothSetsLandedAsTested,
  head,
  isQueueRun,
  merge,
  target,
} from '../helpers/set-queue-world.ts';
import {
  API_OK,
  mergeable,
  ObservedExecutor,
  openPull,
  SCHEMA_OK,
  sendPull,
  settle,
  useWorld,
} from './app-harness.ts';

const startWorld = useWorld();
let cacheRoot: string | undefined;
afterEach(async () => {
  if (cacheRoot) await removeTempDir(cacheRoot);
  cacheRoot = undefined;
});

describe('App: the linked-set merge queue with real Docker', () => {
  it('tests the second set on top of the first and lands both as the commits the engine tested', async () => {
    cacheRoot = await makeTempDir('tandem-set-queue-docker-');
    const executor = new ObservedExecutor(join(cacheRoot, 'cache'));
    const w = await startWorld({ executor });
    mergeable(w);
    for (const repo of ['schema', 'api', 'web']) w.standIn.setPermission('acme', repo, 'alice', 'write');
    await openPull(w, 'schema', SCHEMA_OK, 'Adds total.');
    await openPull(w, 'api', { 'index.js': API_OK }, 'Uses total.\n\nDepends-On: acme/schema#1');
    await openPull(w, 'api', B_API, 'Adds b.', 'feature-b');
    await openPull(w, 'web', B_WEB, 'Next page.\n\nDepends-On: acme/api#2');
    for (const pr of w.standIn.state.pulls.filter((p) => p.state === 'open'))
      await sendPull(w, 'opened', pr.repo, pr.number);
    await settle(w);

    await merge(w, 'api', 1);
    await merge(w, 'web', 1);
    await settle(w);

    const queued = executor.runs.filter((r) => isQueueRun(r.spec) && !r.aborted);
    const a = queued.find((r) => r.spec.targets.some((t) => t.repo === 'acme/schema'))!.spec;
    const b = queued.findLast((r) => r.spec.targets.some((t) => t.repo === 'acme/web'))!.spec;
    // B's speculative state: acme/api at A's tested commit (A's evaluation ran in Docker and passed).
    expect(target(b, 'acme/api').base).toBe(head(a, 'acme/api'));
    expect(queued.length).toBeGreaterThanOrEqual(2);
    for (const run of queued) expect(run.report).toMatchObject({ sandbox: 'docker', outcome: 'resolved' });
    // What landed is exactly what the engine tested.
    await expectBothSetsLandedAsTested(w, a, b);
  }, 300_000);
});
