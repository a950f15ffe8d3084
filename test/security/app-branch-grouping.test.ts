import { describe, expect, it } from 'vitest';
import { git } from '../../src/engine/git/git.ts';
import { API_OK, type ObservedExecutor, SCHEMA_OK } from '../e2e/app-harness.ts';
import { BOTH_MERGED, type Scenario, useScenario } from '../helpers/app-scenario.ts';
import { commitOn } from '../helpers/git-fixtures.ts';

const scenario = useScenario();

async function world(): Promise<{ w: Scenario; executor: ObservedExecutor }> {
  const w = await scenario()
    .observe()
    .config({ extra: 'group_by_branch: true\nqueue: { sequential: true }\n' })
    .mergeable()
    .start();
  return { w, executor: w.observed };
}

/** Mallory's PR on acme/web from the fork mallory/web, branch `feature`: GitHub's refs/pull/N/head. */
async function forkPull(w: Scenario, user = 'mallory') {
  const fixture = w.repos.web!;
  const head = await commitOn(
    fixture,
    'fork-feature',
    { 'index.js': "module.exports = { page: 1, backdoor: 'on main' };\n" },
    'fork change',
    { from: fixture.sha },
  );
  const pr = w.standIn.addPullRequest({
    owner: 'acme',
    repo: 'web',
    title: 'Tiny fix',
    body: 'No links at all.',
    headRef: 'feature',
    headSha: head,
    headRepo: { owner: user, name: 'web' },
    baseRef: 'main',
    baseSha: fixture.sha,
    user,
  });
  await git(['update-ref', `refs/pull/${pr.number}/head`, head], { cwd: fixture.bare });
  return pr;
}

const targetsOf = (executor: ObservedExecutor) =>
  executor.runs.map((r) => r.spec.targets.map((t) => t.repo).sort());

describe('attack: a fork branch named like a member branch', () => {
  for (const order of [
    ['web', 'schema', 'api'],
    ['schema', 'api', 'web'],
  ]) {
    it(`never joins the org's branch group (webhooks ${order.join(', ')})`, async () => {
      const { w, executor } = await world();
      w.standIn.setPermission('acme', 'api', 'alice', 'write');
      w.standIn.setPermission('acme', 'schema', 'alice', 'write');
      // The org's own branch PRs, grouped by their branch name alone (no Depends-On).
      await w.openPull('schema', SCHEMA_OK, 'Adds total.');
      await w.openPull('api', { 'index.js': API_OK }, 'Uses total.');
      const evil = await forkPull(w);
      for (const repo of order) await w.sendPull('opened', repo, 1);
      await w.settle();

      // The branch group still works for the org's own branches ...
      expect(targetsOf(executor)).toContainEqual(['acme/api', 'acme/schema']);
      // ... and nothing evaluated with them ever held the fork's PR.
      expect(targetsOf(executor).filter((t) => t.includes('acme/web'))).toEqual([['acme/web']]);
      for (const repo of ['schema', 'api']) {
        expect(w.tandemChecks(repo).map((c) => c.conclusion)).toEqual(['success']);
        expect(w.linkedLine(repo)).toContain('acme/api#1');
        expect(w.linkedLine(repo)).not.toContain('acme/web#1');
      }
      expect(w.linkedLine('web')).not.toContain('acme/api#1');
      expect(w.tandemChecks('web', evil.head.sha)).toHaveLength(1);

      // A writer merges the set: the fork's PR is not in it and does not block it.
      await w.postComment('api', '/tandem merge', 'alice');
      expect(w.mergeCalls()).toEqual(BOTH_MERGED);
      expect(w.standIn.pullRequest('acme', 'web', 1).merged).toBe(false);
    });
  }

  it('a fork PR whose author writes to the base repository groups by its branch', async () => {
    const { w, executor } = await world();
    w.standIn.setPermission('acme', 'web', 'carol', 'write');
    await w.openPull('schema', SCHEMA_OK, 'Adds total.');
    await w.openPull('api', { 'index.js': API_OK }, 'Uses total.');
    await forkPull(w, 'carol');
    for (const repo of ['schema', 'api', 'web']) await w.sendPull('opened', repo, 1);
    await w.settle();
    expect(targetsOf(executor)).toContainEqual(['acme/api', 'acme/schema', 'acme/web']);
    for (const repo of ['schema', 'api', 'web']) expect(w.linkedLine(repo)).toContain('acme/web#1');
  });
});
