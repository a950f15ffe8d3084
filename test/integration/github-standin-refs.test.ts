/**
 * The stand-in's git side as GitHub behaves (issue 28), driven with plain Octokit calls over HTTP
 * and real git behind it: refs (create, read, fast-forward only with `force: false` — 422 "Update
 * is not a fast forward" — forced, delete), the merges API (201, 204, 409), git commits (read,
 * write), opening a PR, a PR merged once its head is reachable from its base, rulesets' refusals
 * of direct updates and the App's bypass, GitHub's merge queue through GraphQL. REST exchanges
 * conform to GitHub's OpenAPI description.
 */
import { describe, expect, it } from 'vitest';
import { httpStatus } from '../../src/github/octokit.ts';
import { checkExchange } from '../support/github-openapi.ts';
import { requireMergeRules } from '../support/github-standin/routes/merges.ts';
import { useLandingWorlds } from '../support/landing-world.ts';

const landingWorld = useLandingWorlds('tandem-standin-refs-');

const lib = { owner: 'acme', repo: 'lib' };
const status = (p: Promise<unknown>) =>
  p.then(
    () => 200,
    (e) => [httpStatus(e), (e as { response?: { data?: { message?: string } } }).response?.data?.message],
  );

describe('stand-in: refs, merges, commits and the merge queue on real git', () => {
  it('moves refs as GitHub does: fast forward only unless forced; the merges API; a PR merged once reachable', async () => {
    const w = await landingWorld(['lib']);
    const { gh } = w;
    const base = await w.tip('lib');
    const pr = await w.open('lib', 'feature', { 'f.txt': 'f\n' });
    const side = await w.open('lib', 'side', { 'lib.txt': 'side\n' });

    const created = await gh.rest.git.createRef({ ...lib, ref: 'refs/heads/tmp', sha: base });
    expect(created.status).toBe(201);
    expect(await status(gh.rest.git.createRef({ ...lib, ref: 'refs/heads/tmp', sha: base }))).toEqual([
      422,
      'Reference already exists',
    ]);
    const merged = await gh.rest.repos.merge({ ...lib, base: 'tmp', head: pr.head });
    expect(merged.status).toBe(201);
    const again = await gh.rest.repos.merge({ ...lib, base: 'tmp', head: pr.head });
    expect(again.status).toBe(204);
    const commit = await gh.rest.git.getCommit({ ...lib, commit_sha: merged.data.sha });
    expect(commit.data.parents.map((p) => p.sha)).toEqual([base, pr.head]);
    expect(commit.data.tree.sha).toBe(await w.tree('lib', merged.data.sha));

    // main → the merge commit (a fast forward); back is not one: 422, unless forced.
    await gh.rest.git.updateRef({ ...lib, ref: 'heads/main', sha: merged.data.sha, force: false });
    expect(await w.tip('lib')).toBe(merged.data.sha);
    expect(w.s.pullRequest('acme', 'lib', pr.number)).toMatchObject({ state: 'closed', merged: true });
    expect(w.s.pullRequest('acme', 'lib', side.number).merged).toBe(false);
    expect(
      await status(gh.rest.git.updateRef({ ...lib, ref: 'heads/main', sha: side.head, force: false })),
    ).toEqual([422, 'Update is not a fast forward']);
    const conflict = await gh.rest.git.createRef({ ...lib, ref: 'refs/heads/tmp2', sha: merged.data.sha });
    expect(conflict.status).toBe(201);
    await gh.rest.git.updateRef({ ...lib, ref: 'heads/main', sha: base, force: true });
    expect(await w.tip('lib')).toBe(base);
    const read = await gh.rest.git.getRef({ ...lib, ref: 'heads/main' });
    expect(read.data.object.sha).toBe(base);

    // A revert-style commit: an old tree on top of a tip; a PR from a branch.
    const made = await gh.rest.git.createCommit({
      ...lib,
      message: 'restore',
      tree: await w.tree('lib', base),
      parents: [merged.data.sha],
    });
    expect(made.status).toBe(201);
    await gh.rest.git.updateRef({ ...lib, ref: 'heads/tmp2', sha: made.data.sha, force: false });
    const opened = await gh.rest.pulls.create({ ...lib, title: 'restore', head: 'tmp2', base: 'main' });
    expect(opened.data).toMatchObject({ state: 'open', head: { sha: made.data.sha } });

    expect((await gh.rest.git.deleteRef({ ...lib, ref: 'heads/tmp' })).status).toBe(204);
    expect(((await status(gh.rest.git.getRef({ ...lib, ref: 'heads/tmp' }))) as unknown[])[0]).toBe(404);
    expect(w.s.requests.flatMap((e) => checkExchange(e))).toEqual([]);
  });

  it('rulesets refuse direct updates (pull_request without bypass, non_fast_forward when forced, merge queue); GitHub merge queue lands an enqueued PR', async () => {
    const w = await landingWorld(['lib']);
    const { gh } = w;
    const base = await w.tip('lib');
    const pr = await w.open('lib', 'feature', { 'f.txt': 'f\n' });
    const mergedSha = (await gh.rest.repos.merge({ ...lib, base: 'feature', head: base })).status;
    expect(mergedSha).toBe(204);

    requireMergeRules(w.s.state, 'acme', 'lib', 'main', { requirePullRequest: true, noForcePush: true });
    const [code, message] = (await status(
      gh.rest.git.updateRef({ ...lib, ref: 'heads/main', sha: pr.head, force: false }),
    )) as [number, string];
    expect(code).toBe(422);
    expect(message).toMatch(
      /^Repository rule violations found\n\nChanges must be made through a pull request\./,
    );
    const rules = await gh.rest.repos.getBranchRules({ ...lib, branch: 'main' });
    expect(rules.data.map((r) => r.type).sort()).toEqual(['non_fast_forward', 'pull_request']);
    const ruleset = await gh.rest.repos.getRepoRuleset({ ...lib, ruleset_id: 43 });
    expect(ruleset.data.current_user_can_bypass).toBe('never');

    requireMergeRules(w.s.state, 'acme', 'lib', 'main', {
      requirePullRequest: true,
      noForcePush: true,
      appBypass: true,
    });
    expect(
      (await gh.rest.repos.getRepoRuleset({ ...lib, ruleset_id: 43 })).data.current_user_can_bypass,
    ).toBe('always');
    await gh.rest.git.updateRef({ ...lib, ref: 'heads/main', sha: pr.head, force: false });
    // A bypass actor bypasses the whole ruleset; without a pull_request rule, only forcing is refused.
    requireMergeRules(w.s.state, 'acme', 'lib', 'main', { noForcePush: true });
    expect(
      await status(gh.rest.git.updateRef({ ...lib, ref: 'heads/main', sha: base, force: true })),
    ).toEqual([422, 'Repository rule violations found\n\nCannot force-push to this branch\n\n']);

    requireMergeRules(w.s.state, 'acme', 'lib', 'main', { mergeQueue: true });
    const queued = await w.open('lib', 'queued', { 'q.txt': 'q\n' });
    expect(
      await status(gh.rest.pulls.merge({ ...lib, pull_number: queued.number, request: { retries: 0 } })),
    ).toEqual([405, 'Changes must be made through the merge queue']);
    const nodeId = w.s.pullRequest('acme', 'lib', queued.number).node_id;
    const entry = await gh.graphql<{ enqueuePullRequest: { mergeQueueEntry: { state: string } } }>(
      'mutation($pullRequestId: ID!) { enqueuePullRequest(input: {pullRequestId: $pullRequestId}) { mergeQueueEntry { id state position } } }',
      { pullRequestId: nodeId },
    );
    expect(entry.enqueuePullRequest.mergeQueueEntry.state).toBe('QUEUED');
    const after = await gh.graphql<{ node: { merged: boolean; mergeCommit: { oid: string } } }>(
      'query($pullRequestId: ID!) { node(id: $pullRequestId) { ... on PullRequest { merged mergeCommit { oid } } } }',
      { pullRequestId: nodeId },
    );
    expect(after.node.merged).toBe(true);
    expect(await w.tip('lib')).toBe(after.node.mergeCommit.oid);
    expect(w.s.requests.filter((r) => !r.path.endsWith('/graphql')).flatMap((e) => checkExchange(e))).toEqual(
      [],
    );
  });
});
