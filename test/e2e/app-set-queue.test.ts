/**
 * The linked-set merge queue end to end (issue 28): the App over HTTP, the GitHub stand-in with
 * real bare git repositories (refs moved with `force: false`, the merges API, GitHub's merge queue
 * over GraphQL), and a stub executor that judges each speculative state by what its tested commits
 * hold (`git show` in the served repositories). Sets: A = acme/schema#1 ← acme/api#1; B =
 * acme/api#2 ← acme/web#1. They share acme/api's `main`, so B is tested on top of A.
 *
 * Both stores: landing, eviction, the blamed pair, a landing reverted, the restart and the
 * dequeue run on PostgreSQL too (queue items, runs and commits); the flaky re-run, the hand-off to
 * GitHub's queue and a push while queued take the same store paths, run once.
 */
import { describe, expect, it } from 'vitest';
import type { LinkedChangeSpec } from '../../src/app/executors/executor.ts';
import { gitOut } from '../../src/engine/git/git.ts';
import { commitOn } from '../helpers/git-fixtures.ts';
import {
  expectBothSetsLandedAsTested,
  fileAt,
  head,
  merge,
  mergeComment,
  passAll,
  QueueExecutor,
  queueChecks,
  queueWorld,
  target,
  tipOf,
  untilCommentSays,
} from '../helpers/set-queue-world.ts';
import { refuseRefUpdate } from '../support/github-standin/ref-updates.ts';
import { requireMergeRules } from '../support/github-standin/routes/merges.ts';
import type { StubVerdict } from '../support/stub-executor.ts';
import {
  API_BUG,
  APP_BACKENDS,
  restartApp,
  sendPull,
  settle,
  sqliteOnly,
  useWorld,
  type World,
} from './app-harness.ts';

describe.each(APP_BACKENDS)('App: the linked-set merge queue (%s)', (backend) => {
  const startWorld = useWorld({ backend });
  const itOnce = sqliteOnly(backend);
  it('tests the second set on top of the first and lands both as tested, producer first', async () => {
    const { w, executor } = await queueWorld(startWorld, passAll);
    executor.hold();
    await merge(w, 'api', 1);
    await executor.started(1);
    await merge(w, 'web', 1);
    await executor.started(2);
    // Both wait in the queue: positions on the checks before anything lands.
    expect(queueChecks(w, 'web').at(-1)?.output?.title).toMatch(/position 2 of 2/);
    executor.release();
    await settle(w);

    const [a, b] = executor.queueSpecs();
    // B's speculative state: acme/api at A's tested commit, B's heads merged onto it.
    expect(target(b!, 'acme/api').base).toBe(head(a!, 'acme/api'));
    // What landed is exactly what was tested.
    await expectBothSetsLandedAsTested(w, a!, b!);
    expect(queueChecks(w, 'web').at(-1)?.conclusion).toBe('success');
    // Landing moved branches with compare-and-swap updates, never forced.
    const patches = w.standIn.requests.filter(
      (r) => r.method === 'PATCH' && r.path.includes('/git/refs/heads/main'),
    );
    expect(patches.map((r) => (r.body as { force?: boolean }).force)).not.toContain(true);
  });

  it('evicts a failing first set, naming the configuration, and lands the second re-evaluated without it', async () => {
    const bug = async (w: World, spec: LinkedChangeSpec) =>
      (await fileAt(w, 'acme/api', head(spec, 'acme/api'), 'index.js'))?.includes('a - b') ? 'fail' : 'pass';
    const { w, executor } = await queueWorld(startWorld, bug, API_BUG);
    const schemaTip = await tipOf(w, 'schema');
    executor.hold();
    await merge(w, 'api', 1);
    await executor.started(1);
    await merge(w, 'web', 1);
    await executor.started(2);
    executor.release();
    await settle(w);

    for (const [repo, n] of [
      ['schema', 1],
      ['api', 1],
    ] as const) {
      expect(mergeComment(w, repo, n)).toMatch(/Left the merge queue[\s\S]*configuration `full` failed/);
      expect(w.standIn.pullRequest('acme', repo, n).merged).toBe(false);
    }
    expect(await tipOf(w, 'schema')).toBe(schemaTip);
    // B was evaluated again on the base tips (without A) and landed as that evaluation tested it.
    const last = executor.queueSpecs().at(-1)!;
    expect(await fileAt(w, 'acme/api', head(last, 'acme/api'), 'index.js')).not.toContain('a - b');
    expect(await tipOf(w, 'api')).toBe(head(last, 'acme/api'));
    expect(await tipOf(w, 'web')).toBe(head(last, 'acme/web'));
    expect(mergeComment(w, 'web', 1)).toContain('Landed from the merge queue');
  });

  it('blames the pair: a set that passes alone but fails together with the set ahead leaves, naming it', async () => {
    // B's web change breaks only next to A's api change (the `total` field). A's own evaluation
    // answers only once B's diagnostic run (alone, on the base tips) has started: the blame is
    // decided while A has not landed yet, as the queue decides it.
    let releaseA = () => {};
    const aGate = new Promise<void>((ok) => {
      releaseA = ok;
    });
    const together = async (w: World, spec: LinkedChangeSpec) => {
      const api = await fileAt(w, 'acme/api', head(spec, 'acme/api'), 'index.js');
      const web = spec.targets.some((t) => t.repo === 'acme/web');
      if (!web) await aGate;
      return api?.includes('total') && web ? 'fail' : 'pass';
    };
    const { w, executor } = await queueWorld(startWorld, together);
    executor.hold();
    await merge(w, 'api', 1);
    await executor.started(1);
    await merge(w, 'web', 1);
    await executor.started(2);
    executor.release();
    await executor.started(3);
    releaseA();
    await settle(w);
    // A landed; B was evaluated alone (it passes) and leaves with the blame on A's set.
    expect(w.standIn.pullRequest('acme', 'api', 1).merged).toBe(true);
    for (const [repo, n] of [
      ['api', 2],
      ['web', 1],
    ] as const) {
      expect(mergeComment(w, repo, n)).toMatch(
        /configuration `full` failed; passes alone, fails together with acme\/api#1's set/,
      );
      expect(w.standIn.pullRequest('acme', repo, n).merged).toBe(false);
    }
    expect(
      executor
        .queueSpecs()
        .some((s) => !s.targets.some((t) => t.repo === 'acme/schema') && s.name.includes('q2 (')),
    ).toBe(true);
  });

  it('a landing refused midway reverts what landed and says so on every member', async () => {
    const { w } = await queueWorld(startWorld, passAll);
    const before = { schema: await tipOf(w, 'schema'), api: await tipOf(w, 'api') };
    // Producer first: acme/schema lands, then GitHub refuses acme/api's update.
    refuseRefUpdate(w.standIn.state, {
      nth: 1,
      repo: 'acme/api',
      branch: 'main',
      message: 'Update is not a fast forward',
    });
    await merge(w, 'api', 1);
    await settle(w);
    expect(await tipOf(w, 'api')).toBe(before.api);
    // acme/schema is back where it was, or a revert commit on top undoes it: its tree is the old one.
    const tree = async (sha: string) =>
      (await gitOut(['rev-parse', `${sha}^{tree}`], { cwd: w.repos.schema!.bare })).trim();
    expect(await tree(await tipOf(w, 'schema'))).toBe(await tree(before.schema));
    for (const [repo, n] of [
      ['schema', 1],
      ['api', 1],
    ] as const)
      expect(mergeComment(w, repo, n)).toMatch(/Landing refused[\s\S]*GitHub refused to land acme\/api#1/);
  });

  itOnce('a flaky result is run again, not evicted, and the set lands', async () => {
    let first = true;
    const flakyOnce = async () => {
      const v: StubVerdict = first ? 'flaky' : 'pass';
      first = false;
      return v;
    };
    const { w, executor } = await queueWorld(startWorld, flakyOnce);
    await merge(w, 'api', 1);
    await settle(w);
    expect(executor.queueSpecs()).toHaveLength(2);
    expect(mergeComment(w, 'api', 1)).toContain('Landed from the merge queue');
    expect(await tipOf(w, 'api')).toBe(head(executor.queueSpecs()[1]!, 'acme/api'));
  });

  itOnce('hands a member whose branch requires GitHub merge queue to that queue, and it lands', async () => {
    const { w, executor } = await queueWorld(startWorld, passAll);
    requireMergeRules(w.standIn.state, 'acme', 'api', 'main', { mergeQueue: true });
    await merge(w, 'api', 1);
    await settle(w);
    const [a] = executor.queueSpecs();
    expect(w.standIn.requests.some((r) => r.path.endsWith('/graphql'))).toBe(true);
    expect(w.standIn.pullRequest('acme', 'api', 1).merged).toBe(true);
    // GitHub's queue writes its own merge commit: the tree landed is the tree tested.
    const tree = async (sha: string) =>
      (await gitOut(['rev-parse', `${sha}^{tree}`], { cwd: w.repos.api!.bare })).trim();
    expect(await tree(await tipOf(w, 'api'))).toBe(await tree(head(a!, 'acme/api')));
    expect(await tipOf(w, 'schema')).toBe(head(a!, 'acme/schema'));
  });

  it('an App restarted mid-queue resumes: the evaluation it was running is run again and the set lands', async () => {
    const { w, executor } = await queueWorld(startWorld, passAll);
    executor.hold();
    await merge(w, 'api', 1);
    await executor.started(1);
    const after = new QueueExecutor(passAll);
    await restartApp(w, after);
    await settle(w);
    expect(after.queueSpecs()).toHaveLength(1);
    // The same item's evaluation (the held one never answered before the restart).
    expect(executor.queueSpecs()).toHaveLength(0);
    expect(after.queueSpecs()[0]!.name).toMatch(/^merge queue q1 \(/);
    expect(await tipOf(w, 'api')).toBe(head(after.queueSpecs()[0]!, 'acme/api'));
    expect(mergeComment(w, 'api', 1)).toContain('Landed from the merge queue');
  });

  itOnce(
    'a member pushed while queued takes its set out of the queue: the old head never lands',
    async () => {
      const { w, executor } = await queueWorld(startWorld, passAll);
      const apiTip = await tipOf(w, 'api');
      executor.hold();
      await merge(w, 'api', 1);
      await executor.started(1);
      const moved = await commitOn(w.repos.api!, 'feature', { 'later.js': 'x\n' });
      w.standIn.updatePullRequest('acme', 'api', 1, { headSha: moved });
      await sendPull(w, 'synchronize', 'api', 1);
      await untilCommentSays(w, 'schema', 1, 'Removed from the merge queue');
      executor.release();
      await settle(w);
      expect(await tipOf(w, 'api')).toBe(apiTip);
      expect(mergeComment(w, 'schema', 1)).toMatch(
        /Removed from the merge queue[\s\S]*acme\/api#1's head moved/,
      );
    },
  );

  it('/tandem dequeue removes the set and says so on every member', async () => {
    const { w, executor } = await queueWorld(startWorld, passAll);
    executor.hold();
    await merge(w, 'api', 1);
    await executor.started(1);
    await merge(w, 'schema', 1, '/tandem dequeue');
    // The held evaluation answers only once the set has left the queue.
    await untilCommentSays(w, 'api', 1, 'Removed from the merge queue');
    executor.release();
    await settle(w);
    for (const [repo, n] of [
      ['schema', 1],
      ['api', 1],
    ] as const) {
      expect(mergeComment(w, repo, n)).toContain('Removed from the merge queue');
      expect(w.standIn.pullRequest('acme', repo, n).merged).toBe(false);
    }
    expect(queueChecks(w, 'api').at(-1)?.conclusion).toBe('cancelled');
  });
});
