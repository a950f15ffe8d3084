/**
 * Merging through the stand-in as through GitHub, with the App's own GitHub calls
 * (`src/github/merge-pulls.ts`): the base branch's required checks from protection and rulesets,
 * a head's check runs and statuses, and `PUT …/merge` — a real merge commit in the served bare
 * repository; 405 when a required check fails or the PR is closed; 409 when `sha` is not the
 * head; 403 as GitHub says it. Every exchange conforms to GitHub's OpenAPI description.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tandemOctokit } from '../../src/app/octokit.ts';
import { gitOut } from '../../src/engine/git/git.ts';
import { checksOn, livePull, mergePull, requiredChecks } from '../../src/github/merge-pulls.ts';
import type { GitHub } from '../../src/github/octokit.ts';
import { commitOn, createRepo } from '../helpers/git-fixtures.ts';
import { checkExchange } from '../support/github-openapi.ts';
import type { StandIn } from '../support/github-standin/index.ts';
import { requireChecks, setCommitStatus, setGitDir } from '../support/github-standin/routes/merges.ts';
import { setBranch } from '../support/github-standin/routes/repos.ts';
import { standInClient, useStandIn } from '../unit/app-fixtures.ts';

const use = useStandIn('tandem-standin-merge-');

async function world() {
  const root = await use.dir();
  const repo = await createRepo(join(root, 'acme'), 'api', { 'index.js': 'module.exports = 1;\n' });
  const s = await use.start({ tokens: { 'admin-token': 'admin' } });
  s.addRepo({ owner: 'acme', name: 'api' });
  setGitDir(s.state, 'acme', 'api', repo.bare);
  setBranch(s.state, 'acme', 'api', 'main', repo.sha);
  const open = async (branch: string, files: Record<string, string>) => {
    const head = await commitOn(repo, branch, files, `change ${branch}`, { from: repo.sha });
    return s.addPullRequest({
      owner: 'acme',
      repo: 'api',
      title: branch,
      headRef: branch,
      headSha: head,
      baseRef: 'main',
      baseSha: repo.sha,
    });
  };
  return { s, repo, gh: standInClient(s), open };
}

const api = { owner: 'acme', repo: 'api' };

describe('stand-in: merging a pull request', () => {
  it('merges for real in the served repository, pinned to the head; refuses a closed PR and a moved head', async () => {
    const w = await world();
    const pr = await w.open('feature', { 'feature.js': 'x\n' });
    const ref = { ...api, number: pr.number };
    expect(await requiredChecks(w.gh, api, 'main')).toEqual([]);
    expect(await mergePull(w.gh, ref, 'f'.repeat(40))).toMatchObject({ merged: false, status: 409 });

    const answer = await mergePull(w.gh, ref, pr.head.sha);
    expect(answer.merged).toBe(true);
    const tip = (await gitOut(['rev-parse', 'refs/heads/main'], { cwd: w.repo.bare })).trim();
    expect(answer).toEqual({ merged: true, sha: tip });
    const parents = (await gitOut(['rev-list', '--parents', '-n', '1', tip], { cwd: w.repo.bare })).trim();
    expect(parents.split(' ').slice(1)).toEqual([w.repo.sha, pr.head.sha]);
    expect(await livePull(w.gh, ref)).toMatchObject({ state: 'merged', mergeCommitSha: tip });
    const branch = await w.gh.rest.repos.getBranch({ ...api, branch: 'main' });
    expect(branch.data.commit.sha).toBe(tip);

    const again = await mergePull(w.gh, ref, pr.head.sha);
    expect(again).toMatchObject({ merged: false, status: 405 });
    if (!again.merged) expect(again.reason).toBe('GitHub refused the merge: Pull Request is not mergeable');
    expect(checkExchanges(w.s)).toEqual([]);
  });

  it('reads required checks from protection and rulesets, and refuses a merge while one fails', async () => {
    const w = await world();
    const pr = await w.open('feature', { 'feature.js': 'x\n' });
    const sha = pr.head.sha;
    requireChecks(w.s.state, 'acme', 'api', 'main', ['Tandem'], 'protection');
    requireChecks(w.s.state, 'acme', 'api', 'main', ['ci'], 'rules');
    // The App has no `administration`: protection's endpoint refuses it, the branch tells it.
    expect((await requiredChecks(w.gh, api, 'main')).sort()).toEqual(['Tandem', 'ci']);
    const protectionCall = w.s.requests.find((r) => r.path.endsWith('/protection/required_status_checks'));
    expect(protectionCall?.status).toBe(403);
    const admin = new (tandemOctokit({ writeSpacingMs: 0 }))({
      auth: { token: 'admin-token' },
      baseUrl: w.s.apiUrl,
    }) as unknown as GitHub;
    expect((await requiredChecks(admin, api, 'main')).sort()).toEqual(['Tandem', 'ci']);
    expect(
      w.s.requests.filter((r) => r.path.endsWith('/required_status_checks')).map((r) => r.status),
    ).toEqual([403, 200]);
    const { data: run } = await w.gh.rest.checks.create({ ...api, name: 'Tandem', head_sha: sha });
    await w.gh.rest.checks.update({ ...api, check_run_id: run.id, conclusion: 'success' });
    setCommitStatus(w.s.state, 'acme', 'api', sha, 'ci', 'pending');
    setCommitStatus(w.s.state, 'acme', 'api', sha, 'ci', 'failure');
    const checks = await checksOn(w.gh, api, sha);
    expect(checks.runs.map((r) => [r.name, r.conclusion])).toEqual([['Tandem', 'success']]);
    expect(checks.statuses).toEqual([{ context: 'ci', state: 'failure' }]);

    const refused = await mergePull(w.gh, { ...api, number: pr.number }, sha);
    expect(refused).toEqual({
      merged: false,
      status: 405,
      reason: 'GitHub refused the merge: Required status check "ci" is failing.',
    });
    setCommitStatus(w.s.state, 'acme', 'api', sha, 'ci', 'success');
    expect((await mergePull(w.gh, { ...api, number: pr.number }, sha)).merged).toBe(true);
    expect(checkExchanges(w.s)).toEqual([]);
  });

  it('a conflict with the base is 405; a 403 says the App needs contents: write', async () => {
    const w = await world();
    const first = await w.open('one', { 'index.js': 'module.exports = 2;\n' });
    const second = await w.open('two', { 'index.js': 'module.exports = 3;\n' });
    expect((await mergePull(w.gh, { ...api, number: first.number }, first.head.sha)).merged).toBe(true);
    expect(await mergePull(w.gh, { ...api, number: second.number }, second.head.sha)).toMatchObject({
      merged: false,
      status: 405,
    });
    w.s.failNext({ status: 403, method: 'PUT', message: 'Resource not accessible by integration' });
    const forbidden = await mergePull(w.gh, { ...api, number: second.number }, second.head.sha);
    expect(forbidden.merged).toBe(false);
    if (!forbidden.merged) expect(forbidden.reason).toMatch(/needs `contents: write`/);
  });
});

function checkExchanges(s: StandIn) {
  const exchanges = s.requests.filter((r) => !r.path.startsWith('/_'));
  expect(exchanges.some((e) => e.method === 'PUT' && e.status === 200)).toBe(true);
  return exchanges.flatMap((e) => checkExchange(e));
}
