/**
 * The linked-set merge queue end to end (issue 28): the App over HTTP, the GitHub stand-in with
 * real bare git repositories (refs moved with `force: false`, the merges API, GitHub's merge queue
 * over GraphQL), and a stub executor that judges each speculative state by what its tested commits
 * hold (`git show` in the served repositories). Sets: A = acme/schema#1 ← acme/api#1; B =
 * acme/api#2 ← acme/web#1. They share acme/api's `main`, so B is tested on top of A.
 */
import { describe, expect, it } from 'vitest';
import type { LinkedChangeSpec } from '../../src/app/executors/executor.ts';
import type { Report } from '../../src/core/report.schema.ts';
import { gitOut } from '../../src/engine/git/git.ts';
import { commitOn } from '../helpers/git-fixtures.ts';
import { refuseRefUpdate } from '../support/github-standin/ref-updates.ts';
import { requireMergeRules } from '../support/github-standin/routes/merges.ts';
import { StubExecutor, type StubVerdict } from '../support/stub-executor.ts';
import {
  API_BUG,
  API_OK,
  mergeable,
  openPull,
  restartApp,
  SCHEMA_OK,
  sendComment,
  sendPull,
  settle,
  until,
  useWorld,
  type World,
} from './app-harness.ts';

const startWorld = useWorld();
const MERGE_MARKER = '<!-- tandem:merge -->';
const B_API = { 'b.js': 'module.exports = 2;\n' };
const B_WEB = { 'index.js': 'module.exports = { page: 1, next: 2 };\n' };

/** What a tested commit holds at `path` (undefined when absent). */
async function fileAt(w: World, repo: string, sha: string, path: string): Promise<string | undefined> {
  const bare = w.repos[repo.slice('acme/'.length)]!.bare;
  return gitOut(['show', `${sha}:${path}`], { cwd: bare }).catch(() => undefined);
}

/** A stub whose queue evaluations wait for `release()` (or their abort) while held, judged by `rule`. */
class QueueExecutor extends StubExecutor {
  private gate: Promise<void> | undefined;
  private open = () => {};
  private readonly waiters: Array<{ n: number; ok: () => void }> = [];

  constructor(rule: (spec: LinkedChangeSpec) => Promise<StubVerdict>) {
    super(async (spec) => (isQueueRun(spec) ? rule(spec) : 'pass'));
  }

  override async run(spec: LinkedChangeSpec, signal?: AbortSignal): Promise<Report> {
    if (isQueueRun(spec)) {
      this.seen.push(spec);
      for (const x of this.waiters.filter((x) => this.seen.length >= x.n)) x.ok();
      const aborted = new Promise<void>((ok) => signal?.addEventListener('abort', () => ok()));
      if (this.gate) await Promise.race([this.gate, aborted]);
      if (signal?.aborted) throw new Error('aborted while held');
    }
    return super.run(spec);
  }

  hold(): void {
    this.gate = new Promise((ok) => {
      this.open = ok;
    });
  }

  release(): void {
    this.open();
    this.gate = undefined;
  }

  /** Queue evaluations that reached the executor (held ones included). */
  private readonly seen: LinkedChangeSpec[] = [];

  queueSpecs(): LinkedChangeSpec[] {
    return this.specs.filter(isQueueRun);
  }

  /** Resolves once `n` queue evaluations have reached the executor. */
  started(n: number): Promise<void> {
    if (this.seen.length >= n) return Promise.resolve();
    return new Promise((ok) => this.waiters.push({ n, ok }));
  }
}

const isQueueRun = (spec: LinkedChangeSpec) => spec.name.startsWith('merge queue');
const target = (spec: LinkedChangeSpec, repo: string) => spec.targets.find((t) => t.repo === repo)!;
const head = (spec: LinkedChangeSpec, repo: string) => {
  const t = target(spec, repo);
  return 'head' in t ? t.head : '';
};

/** The world with sets A and B opened and evaluated, and alice writing everywhere. */
async function queueWorld(rule: (w: World, spec: LinkedChangeSpec) => Promise<StubVerdict>, api = API_OK) {
  let world: World | undefined;
  const executor = new QueueExecutor((spec) => rule(world!, spec));
  const w = await startWorld({ executor });
  world = w;
  mergeable(w);
  for (const repo of ['schema', 'api', 'web']) w.standIn.setPermission('acme', repo, 'alice', 'write');
  await openPull(w, 'schema', SCHEMA_OK, 'Adds total.');
  await openPull(w, 'api', { 'index.js': api }, 'Uses total.\n\nDepends-On: acme/schema#1');
  await openPull(w, 'api', B_API, 'Adds b.', 'feature-b');
  await openPull(w, 'web', B_WEB, 'Next page.\n\nDepends-On: acme/api#2');
  for (const [repo, n] of [
    ['schema', 1],
    ['api', 1],
    ['api', 2],
    ['web', 1],
  ] as const)
    await sendPull(w, 'opened', repo, n);
  await settle(w);
  return { w, executor };
}

/** `/tandem merge` on acme/`repo`#`n` by alice, without waiting for the App to be idle. */
function merge(w: World, repo: string, n: number, body = '/tandem merge') {
  const comment = w.standIn.addComment('acme', repo, n, { body, user: 'alice' });
  return sendComment(w, repo, n, comment);
}

const tipOf = async (w: World, repo: string) =>
  (await gitOut(['rev-parse', 'refs/heads/main'], { cwd: w.repos[repo]!.bare })).trim();

function mergeComment(w: World, repo: string, n: number): string {
  const found = w.standIn.comments('acme', repo, n).filter((c) => c.body?.includes(MERGE_MARKER));
  expect(found).toHaveLength(1);
  return found[0]!.body ?? '';
}

const queueChecks = (w: World, repo: string) =>
  w.standIn.checkRuns('acme', repo).filter((c) => c.name === 'Tandem queue');

const passAll = async () => 'pass' as const;

describe('App: the linked-set merge queue', () => {
  it('tests the second set on top of the first and lands both as tested, producer first', async () => {
    const { w, executor } = await queueWorld(passAll);
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
    expect(await tipOf(w, 'schema')).toBe(head(a!, 'acme/schema'));
    expect(await tipOf(w, 'api')).toBe(head(b!, 'acme/api'));
    expect(await tipOf(w, 'web')).toBe(head(b!, 'acme/web'));
    for (const [repo, n] of [
      ['schema', 1],
      ['api', 1],
      ['api', 2],
      ['web', 1],
    ] as const) {
      expect(w.standIn.pullRequest('acme', repo, n).merged).toBe(true);
      expect(mergeComment(w, repo, n)).toContain('Landed from the merge queue');
    }
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
    const { w, executor } = await queueWorld(bug, API_BUG);
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
    const { w, executor } = await queueWorld(together);
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
    const { w } = await queueWorld(passAll);
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

  it('a flaky result is run again, not evicted, and the set lands', async () => {
    let first = true;
    const flakyOnce = async () => {
      const v: StubVerdict = first ? 'flaky' : 'pass';
      first = false;
      return v;
    };
    const { w, executor } = await queueWorld(flakyOnce);
    await merge(w, 'api', 1);
    await settle(w);
    expect(executor.queueSpecs()).toHaveLength(2);
    expect(mergeComment(w, 'api', 1)).toContain('Landed from the merge queue');
    expect(await tipOf(w, 'api')).toBe(head(executor.queueSpecs()[1]!, 'acme/api'));
  });

  it('hands a member whose branch requires GitHub merge queue to that queue, and it lands', async () => {
    const { w, executor } = await queueWorld(passAll);
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
    const { w, executor } = await queueWorld(passAll);
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

  it('a member pushed while queued takes its set out of the queue: the old head never lands', async () => {
    const { w, executor } = await queueWorld(passAll);
    const apiTip = await tipOf(w, 'api');
    executor.hold();
    await merge(w, 'api', 1);
    await executor.started(1);
    const moved = await commitOn(w.repos.api!, 'feature', { 'later.js': 'x\n' });
    w.standIn.updatePullRequest('acme', 'api', 1, { headSha: moved });
    await sendPull(w, 'synchronize', 'api', 1);
    await until(
      w,
      () =>
        w.standIn.comments('acme', 'schema', 1).some((c) => c.body?.includes('Removed from the merge queue')),
      'the set taken out of the queue',
    );
    executor.release();
    await settle(w);
    expect(await tipOf(w, 'api')).toBe(apiTip);
    expect(mergeComment(w, 'schema', 1)).toMatch(
      /Removed from the merge queue[\s\S]*acme\/api#1's head moved/,
    );
  });

  it('/tandem dequeue removes the set and says so on every member', async () => {
    const { w, executor } = await queueWorld(passAll);
    executor.hold();
    await merge(w, 'api', 1);
    await executor.started(1);
    await merge(w, 'schema', 1, '/tandem dequeue');
    // The held evaluation answers only once the set has left the queue.
    await until(
      w,
      () =>
        w.standIn.comments('acme', 'api', 1).some((c) => c.body?.includes('Removed from the merge queue')),
      'the dequeue said on acme/api#1',
    );
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
