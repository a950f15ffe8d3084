/**
 * Landing linked sets as tested (issue 28) against the GitHub stand-in over HTTP, with real git
 * behind it: the tested commit (member heads merged onto the speculative base through the merges
 * API) is exactly what lands; GitHub's compare-and-swap refuses a non-fast-forward; a refusal of
 * the 2nd of 3 landings reverts the 1st (reset where the rules allow it, a revert commit or a
 * revert PR where not) so nothing is left half-merged; a repository that requires GitHub's merge
 * queue is landed by handing the tested member to that queue; the pre-check refuses up front what
 * the App could not land. REST exchanges conform to GitHub's OpenAPI description.
 */
import { describe, expect, it } from 'vitest';
import { branchTip, moveBranch } from '../../src/github/branch-refs.ts';
import { landTestedSet } from '../../src/github/land-set.ts';
import { precheckQueueItem } from '../../src/github/queue-precheck.ts';
import { buildTestedCommit, testedBranch } from '../../src/github/tested-commits.ts';
import { checkExchange } from '../support/github-openapi.ts';
import { refuseRefUpdate } from '../support/github-standin/ref-updates.ts';
import { failMergeQueue } from '../support/github-standin/routes/merge-queue.ts';
import { addReview, requireMergeRules } from '../support/github-standin/routes/merges.ts';
import {
  type LandingWorld,
  type OpenedPull,
  openTestedSet,
  useLandingWorlds,
} from '../support/landing-world.ts';

const landingWorld = useLandingWorlds('tandem-landing-');
const world = (names = ['lib', 'api', 'web']) => landingWorld(names);

const testedSet = (world: LandingWorld, names: string[], itemId = 'item-1') =>
  openTestedSet(world, names, itemId);

const merged = (world: LandingWorld, pr: OpenedPull) =>
  world.s.state.pull('acme', pr.repo.slice(5), pr.number)?.merged;

function conforming(world: LandingWorld) {
  return world.s.requests.filter((r) => !r.path.endsWith('/graphql')).flatMap((e) => checkExchange(e));
}

describe('landing a linked set as tested', () => {
  it('lands exactly the tested commits, producer first; the PRs close as merged; GitHub refuses a non-fast-forward', async () => {
    const world_ = await world();
    const before = await world_.tip('lib');
    const { landings, pulls } = await testedSet(world_, ['lib', 'api', 'web']);
    for (const [i, l] of landings.entries()) {
      // The tested commit merges the member's head onto the base tip.
      const { data } = await world_.gh.rest.git.getCommit({
        owner: 'acme',
        repo: l.repo.slice(5),
        commit_sha: l.testedSha,
      });
      expect(data.parents.map((p) => p.sha)).toEqual([l.expectedTip, pulls[i]!.head]);
      expect(await branchTip(world_.gh, l.repo, testedBranch('item-1', l.repo))).toBe(l.testedSha);
      expect(merged(world_, pulls[i]!)).toBe(false);
    }
    const out = await landTestedSet(world_.gh, landings, { itemId: 'item-1' });
    expect(out.kind).toBe('landed');
    for (const [i, l] of landings.entries()) {
      expect(await world_.tip(l.repo.slice(5))).toBe(l.testedSha);
      expect(merged(world_, pulls[i]!)).toBe(true);
      // The temporary branch is gone once landed.
      expect(await branchTip(world_.gh, l.repo, testedBranch('item-1', l.repo))).toBeUndefined();
    }
    // Moving main back is not a fast forward: GitHub's compare-and-swap refuses it.
    expect(await moveBranch(world_.gh, 'acme/lib', 'main', before, false)).toEqual({
      moved: false,
      status: 422,
      reason: 'Update is not a fast forward',
    });
    const order = world_.s.requests.filter(
      (r) => r.method === 'PATCH' && decodeURIComponent(r.path).endsWith('/git/refs/heads/main'),
    );
    expect(order.map((r) => r.path.split('/')[3])).toEqual(['lib', 'api', 'web', 'lib']);
    expect(conforming(world_)).toEqual([]);
  });

  it('a conflict between the heads and the speculative base names the PR; a branch that moved elsewhere refuses the set with nothing landed', async () => {
    const world_ = await world(['lib']);
    const one = await world_.open('lib', 'one', { 'lib.txt': 'one\n' });
    const two = await world_.open('lib', 'two', { 'lib.txt': 'two\n' });
    const onto = await world_.tip('lib');
    const built = await buildTestedCommit(world_.gh, {
      repo: 'acme/lib',
      baseBranch: 'main',
      onto,
      heads: [one.head, two.head],
      pulls: [one.pull, two.pull],
      itemId: 'q7',
    });
    expect(built).toEqual({ conflict: two.pull });
    expect(await branchTip(world_.gh, 'acme/lib', testedBranch('q7', 'acme/lib'))).toBeUndefined();

    const { landings } = await testedSet(world_, ['lib'], 'q8');
    const other = await world_.open('lib', 'other', { 'other.txt': 'x\n' });
    await moveBranch(world_.gh, 'acme/lib', 'main', other.head, false);
    const out = await landTestedSet(world_.gh, landings);
    expect(out).toMatchObject({ kind: 'refused', reverted: [], windowMs: 0 });
    if (out.kind === 'refused')
      expect(out.reason).toMatch(/acme\/lib main moved to .* after acme\/lib#\d+ was tested/);
    expect(await world_.tip('lib')).toBe(other.head);
  });

  it('an item tested on top of the item ahead lands after it, exactly as tested; landed before it, it is refused', async () => {
    const world_ = await world(['lib']);
    const base = await world_.tip('lib');
    const first = await world_.open('lib', 'first', { 'first.txt': '1\n' });
    const second = await world_.open('lib', 'second', { 'second.txt': '2\n' });
    const build = async (itemId: string, onto: string, pr: OpenedPull) => {
      const b = await buildTestedCommit(world_.gh, {
        repo: 'acme/lib',
        baseBranch: 'main',
        onto,
        heads: [pr.head],
        itemId,
      });
      if (!('sha' in b)) throw new Error('conflict');
      return { pull: pr.pull, repo: 'acme/lib', baseBranch: 'main', expectedTip: onto, testedSha: b.sha };
    };
    const ahead = await build('a', base, first);
    // The speculative state of the item behind: the tested commit of the item ahead.
    const behind = await build('b', ahead.testedSha, second);
    // Out of order, the item behind would carry the one ahead in without its other repositories: refused.
    const early = await landTestedSet(world_.gh, [behind]);
    expect(early).toMatchObject({ kind: 'refused', reverted: [] });
    expect(await world_.tip('lib')).toBe(base);
    expect((await landTestedSet(world_.gh, [ahead], { itemId: 'a' })).kind).toBe('landed');
    expect((await landTestedSet(world_.gh, [behind], { itemId: 'b' })).kind).toBe('landed');
    expect(await world_.tip('lib')).toBe(behind.testedSha);
    expect(merged(world_, first)).toBe(true);
    expect(merged(world_, second)).toBe(true);
  });

  it('a refusal of the 2nd of 3 landings resets the 1st where the rules allow it: nothing half-merged', async () => {
    const world_ = await world();
    const { landings } = await testedSet(world_, ['lib', 'api', 'web']);
    const trees = await Promise.all(landings.map((l) => world_.tree(l.repo.slice(5), l.expectedTip)));
    refuseRefUpdate(world_.s.state, { nth: 1, repo: 'acme/api', branch: 'main' });
    const out = await landTestedSet(world_.gh, landings, { itemId: 'item-1' });
    expect(out.kind).toBe('refused');
    if (out.kind !== 'refused') return;
    expect(out.at.repo).toBe('acme/api');
    expect(out.reason).toMatch(
      /GitHub refused to move acme\/api main to the tested commit: Repository rule violations/,
    );
    expect(out.reverted.map((r) => [r.landing.repo, r.how])).toEqual([['acme/lib', 'reset']]);
    expect(out.unreverted).toBeUndefined();
    expect(out.windowMs).toBeGreaterThan(0);
    for (const [i, l] of landings.entries()) {
      expect(await world_.tip(l.repo.slice(5))).toBe(l.expectedTip);
      expect(await world_.tree(l.repo.slice(5), await world_.tip(l.repo.slice(5)))).toBe(trees[i]);
    }
  });

  it('where a forced update is forbidden the 1st is reverted by a revert commit; where the App may not move the branch, by a revert PR', async () => {
    const world_ = await world(['lib', 'api']);
    // lib: force pushes forbidden, changes through PRs, the App a bypass actor.
    requireMergeRules(world_.s.state, 'acme', 'lib', 'main', {
      requirePullRequest: true,
      noForcePush: true,
      appBypass: true,
    });
    const { landings } = await testedSet(world_, ['lib', 'api']);
    refuseRefUpdate(world_.s.state, { nth: 1, repo: 'acme/api', branch: 'main' });
    const out = await landTestedSet(world_.gh, landings);
    expect(out).toMatchObject({ kind: 'refused', reverted: [{ how: 'revert-commit' }] });
    const libTip = await world_.tip('lib');
    expect(libTip).not.toBe(landings[0]!.expectedTip);
    expect(await world_.tree('lib', libTip)).toBe(await world_.tree('lib', landings[0]!.expectedTip));

    // lib through GitHub's merge queue: the App may not move it, so the revert is a PR.
    const again = await world(['lib', 'api']);
    requireMergeRules(again.s.state, 'acme', 'lib', 'main', { mergeQueue: true });
    const set = await testedSet(again, ['lib', 'api'], 'item-2');
    refuseRefUpdate(again.s.state, { nth: 1, repo: 'acme/api', branch: 'main' });
    const viaQueue = await landTestedSet(
      again.gh,
      [{ ...set.landings[0]!, viaMergeQueue: true }, set.landings[1]!],
      {
        itemId: 'item-2',
        mergeQueue: { pollMs: 1 },
      },
    );
    expect(viaQueue).toMatchObject({ kind: 'refused', reverted: [{ how: 'revert-pr' }] });
    if (viaQueue.kind !== 'refused') return;
    const revert = viaQueue.reverted[0]!.revertPull!;
    expect(revert).toMatch(/^acme\/lib#\d+$/);
    const pr = again.s.pullRequest('acme', 'lib', Number(revert.split('#')[1]));
    expect(pr.state).toBe('open');
    expect(await again.tree('lib', pr.head.sha)).toBe(await again.tree('lib', set.landings[0]!.expectedTip));
  });

  it('when GitHub refuses the reset and the revert commit too, the revert is offered as a PR, never dropped', async () => {
    const world_ = await world(['lib', 'api']);
    const { landings } = await testedSet(world_, ['lib', 'api']);
    refuseRefUpdate(world_.s.state, { nth: 1, repo: 'acme/api', branch: 'main' });
    // lib's 1st update is the landing; the 2nd (the reset) and 3rd (the revert commit) are refused.
    refuseRefUpdate(world_.s.state, { nth: 2, repo: 'acme/lib', branch: 'main' });
    refuseRefUpdate(world_.s.state, { nth: 3, repo: 'acme/lib', branch: 'main' });
    const out = await landTestedSet(world_.gh, landings, { itemId: 'item-9' });
    expect(out).toMatchObject({ kind: 'refused', reverted: [{ how: 'revert-pr' }] });
    if (out.kind !== 'refused') return;
    expect(out.unreverted).toBeUndefined();
    const pr = world_.s.pullRequest('acme', 'lib', Number(out.reverted[0]!.revertPull!.split('#')[1]));
    expect(pr).toMatchObject({
      state: 'open',
      base: { ref: 'main' },
      head: { ref: 'tandem/revert/item-9/lib' },
    });
    expect(await world_.tip('lib')).toBe(landings[0]!.testedSha);
    expect(await world_.tree('lib', pr.head.sha)).toBe(await world_.tree('lib', landings[0]!.expectedTip));
  });

  it('a repository requiring GitHub merge queue: the tested member is handed to that queue and lands with the tested tree; a dropped entry refuses the set', async () => {
    const world_ = await world(['lib', 'api']);
    requireMergeRules(world_.s.state, 'acme', 'lib', 'main', { mergeQueue: true });
    const { landings, pulls } = await testedSet(world_, ['lib', 'api']);
    const checks = await precheckQueueItem(
      world_.gh,
      pulls.map((p) => ({ pull: p.pull, baseBranch: 'main' })),
    );
    expect(checks).toEqual([
      { pull: pulls[0]!.pull, ok: true, viaMergeQueue: true },
      { pull: pulls[1]!.pull, ok: true, viaMergeQueue: false },
    ]);
    // Directly, GitHub refuses: the branch takes changes only through its merge queue.
    const direct = await moveBranch(world_.gh, 'acme/lib', 'main', landings[0]!.testedSha, false);
    expect(direct).toMatchObject({ moved: false, status: 422 });
    if (!direct.moved) expect(direct.reason).toMatch(/Changes must be made through the merge queue/);

    const out = await landTestedSet(
      world_.gh,
      landings.map((l, i) => ({ ...l, viaMergeQueue: checks[i]!.ok && checks[i]!.viaMergeQueue })),
      { mergeQueue: { pollMs: 1 } },
    );
    expect(out.kind).toBe('landed');
    expect(await world_.tree('lib', await world_.tip('lib'))).toBe(
      await world_.tree('lib', landings[0]!.testedSha),
    );
    expect(await world_.tip('api')).toBe(landings[1]!.testedSha);
    expect(merged(world_, pulls[0]!)).toBe(true);

    const next = await testedSet(world_, ['lib', 'api'], 'item-3');
    failMergeQueue(world_.s.state, 'acme', 'lib');
    const dropped = await landTestedSet(
      world_.gh,
      [{ ...next.landings[0]!, viaMergeQueue: true }, next.landings[1]!],
      {
        mergeQueue: { pollMs: 1 },
      },
    );
    expect(dropped).toMatchObject({ kind: 'refused', reverted: [] });
    if (dropped.kind === 'refused')
      expect(dropped.reason).toMatch(/GitHub's merge queue dropped acme\/lib#\d+/);
    expect(await world_.tip('api')).toBe(next.landings[1]!.expectedTip);
  });

  it('the pre-check refuses up front what the App could not land: a pull_request rule without bypass, missing reviews', async () => {
    const world_ = await world(['lib', 'api']);
    requireMergeRules(world_.s.state, 'acme', 'lib', 'main', { requirePullRequest: true });
    requireMergeRules(world_.s.state, 'acme', 'api', 'main', { approvals: 1, appBypass: true });
    const lib = await world_.open('lib', 'f', { 'f.txt': 'f\n' });
    const api = await world_.open('api', 'f', { 'f.txt': 'f\n' });
    const members = [lib, api].map((p) => ({ pull: p.pull, baseBranch: 'main' }));
    const [libCheck, apiCheck] = await precheckQueueItem(world_.gh, members);
    expect(libCheck).toMatchObject({ ok: false });
    if (libCheck && !libCheck.ok) expect(libCheck.reason).toMatch(/not one of its bypass actors/);
    expect(apiCheck).toMatchObject({ ok: false });
    if (apiCheck && !apiCheck.ok) expect(apiCheck.reason).toMatch(/requires 1 approving review/);
    world_.s.setPermission('acme', 'api', 'alice', 'write');
    addReview(world_.s.state, 'acme', 'api', api.number, {
      user: 'alice',
      state: 'APPROVED',
      commitId: api.head,
    });
    requireMergeRules(world_.s.state, 'acme', 'lib', 'main', { requirePullRequest: true, appBypass: true });
    expect((await precheckQueueItem(world_.gh, members)).map((c) => c.ok)).toEqual([true, true]);
  });
});
