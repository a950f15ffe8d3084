/**
 * `/tandem merge` member by member, as organizations on `executor: actions` get it (the others'
 * `/tandem merge` enqueues: app-set-queue.test.ts), end to end: the App over HTTP, the GitHub stand-in, real git remotes the
 * merges land in, and the real engine (Docker) for the evaluation a merge depends on. A resolved
 * set merges producer first; a reader gets 😕; a failing required check on the second PR leaves a
 * half-merged set that every member's comment names; a moved head or an unresolved set merges
 * nothing and says why.
 *
 * Both stores: the merge and the half-merged set run on PostgreSQL too (the merges table and its
 * JSON steps); the refusals before any merge take the same paths, run once.
 */
import { describe, expect, it } from 'vitest';
import { gitOut } from '../../src/engine/git/git.ts';
import { type Scenario, type ScenarioBuilder, useScenario } from '../helpers/app-scenario.ts';
import { commitOn } from '../helpers/git-fixtures.ts';
import { requireChecks, setCommitStatus } from '../support/github-standin/routes/merges.ts';
import {
  API_BUG,
  API_OK,
  APP_BACKENDS,
  orgConfig,
  SCHEMA_OK,
  sqliteOnly,
  type World,
} from './app-harness.ts';

const MERGE_MARKER = '<!-- tandem:merge -->';

/** acme/schema#1 ← acme/api#1 (the consumer), evaluated; `api` is the consumer's code. */
async function evaluatedSet(scenario: () => ScenarioBuilder, api = API_OK) {
  const w = await scenario().start();
  w.mergeable();
  for (const repo of ['schema', 'api']) {
    w.standIn.setPermission('acme', repo, 'alice', 'write');
    // `Tandem` is required everywhere, as docs/app.md recommends.
    requireChecks(w.standIn.state, 'acme', repo, 'main', ['Tandem']);
  }
  const schema = await w.openPull('schema', SCHEMA_OK, 'Adds total.');
  const consumer = await w.openPull('api', { 'index.js': api }, 'Uses total.\n\nDepends-On: acme/schema#1');
  await w.sendPull('opened', 'schema', schema.number);
  await w.sendPull('opened', 'api', consumer.number);
  await w.settle();
  const expected = api === API_OK ? 'success' : 'failure';
  expect(w.tandemChecks('api', consumer.head.sha)[0]?.conclusion).toBe(expected);
  // The sequential merge serves organizations that evaluate in their evaluator's workflow; the
  // others' `/tandem merge` enqueues (app-set-queue.test.ts). The evaluation above ran locally.
  evaluateWith(w, 'actions');
  return { w, schema, api: consumer };
}

/** Switches the org's `executor` (and drops the App's cached `tandem.yml`). */
function evaluateWith(w: World, executor: 'local' | 'actions') {
  const extra = executor === 'actions' ? 'executor: actions\nactions: { workflow: tandem.yml }\n' : '';
  w.standIn.setFile('acme', '.github', '.github/tandem.yml', orgConfig(extra));
  w.app.service.invalidateConfig(w.installationId);
}

/** `user` comments `/tandem merge` on acme/api#1; resolves once the App is idle again. */
function commentMerge(w: Scenario, user: string) {
  return w.postComment('api', 'Ship it.\n\n/tandem merge', user);
}

const mergeCalls = (w: Scenario) =>
  w.standIn.requests.filter((r) => r.method === 'PUT' && r.path.endsWith('/merge'));

function mergeComment(w: Scenario, repo: string): string {
  const found = w.standIn.comments('acme', repo, 1).filter((c) => c.body?.includes(MERGE_MARKER));
  expect(found).toHaveLength(1);
  expect(found[0]!.user?.login).toBe(w.standIn.botLogin);
  return found[0]!.body ?? '';
}

const tipOf = async (w: Scenario, repo: string) =>
  (await gitOut(['rev-parse', 'refs/heads/main'], { cwd: w.repos[repo]!.bare })).trim();

async function parentsOf(w: Scenario, repo: string, sha: string): Promise<string[]> {
  const line = await gitOut(['rev-list', '--parents', '-n', '1', sha], { cwd: w.repos[repo]!.bare });
  return line.trim().split(' ').slice(1);
}

describe.each(APP_BACKENDS)('App: /tandem merge (%s)', (backend) => {
  const scenario = useScenario({ backend });
  const itOnce = sqliteOnly(backend);
  it('merges a resolved set producer first, says so on every member, and does not merge twice', async () => {
    const { w, schema, api } = await evaluatedSet(scenario);
    const before = { schema: await tipOf(w, 'schema'), api: await tipOf(w, 'api') };
    const comment = await commentMerge(w, 'alice');
    expect(w.standIn.reactions(Number(comment.id)).map((r) => r.content)).toEqual(['+1']);

    // Producer first: the merge order is the suite's (schema, then api), not where the command was.
    expect(mergeCalls(w).map((r) => [r.path, r.status, (r.body as { sha?: string }).sha])).toEqual([
      ['/repos/acme/schema/pulls/1/merge', 200, schema.head.sha],
      ['/repos/acme/api/pulls/1/merge', 200, api.head.sha],
    ]);
    // Required checks were read where an App may read them: the branch (protection's endpoint
    // refuses an App without administration) and its rules.
    const reads = w.standIn.requests.filter(
      (r) => r.method === 'GET' && r.path.startsWith('/repos/acme/api/'),
    );
    expect(reads.map((r) => [r.path, r.status])).toEqual(
      expect.arrayContaining([
        ['/repos/acme/api/branches/main/protection/required_status_checks', 403],
        ['/repos/acme/api/branches/main', 200],
        ['/repos/acme/api/rules/branches/main', 200],
      ]),
    );
    // The served remotes moved: each base is a merge of its old tip and the evaluated head.
    expect(await parentsOf(w, 'schema', await tipOf(w, 'schema'))).toEqual([before.schema, schema.head.sha]);
    expect(await parentsOf(w, 'api', await tipOf(w, 'api'))).toEqual([before.api, api.head.sha]);
    for (const repo of ['schema', 'api']) {
      const body = mergeComment(w, repo);
      expect(body).toMatch(
        /^✅ \*\*Merged\*\* — all 2 pull requests of the linked change, in merge order\.$/m,
      );
      expect(body).toMatch(/^\| `acme\/schema#1` \| `[0-9a-f]{7}` \| ✅ merged as `[0-9a-f]{7}` \|$/m);
      expect(body).toMatch(/^\| `acme\/api#1` \| `[0-9a-f]{7}` \| ✅ merged as `[0-9a-f]{7}` \|$/m);
      expect(w.standIn.pullRequest('acme', repo, 1).merged).toBe(true);
      // The verdict comment says the set is merged and offers nothing to re-run (issue 21).
      const verdict = w.stickyComments(repo, 1)[0]!.body!;
      expect(verdict).toContain('✅ **Merged** with `/tandem merge` by alice');
      expect(verdict).not.toContain('/tandem run');
    }

    // GitHub announces both merges; then again: the set is merged, so the App says so and asks
    // GitHub for nothing.
    await w.sendPull('closed', 'schema', 1);
    await w.sendPull('closed', 'api', 1);
    await w.settle();
    await commentMerge(w, 'alice');
    expect(mergeCalls(w)).toHaveLength(2);
    expect(mergeComment(w, 'api')).toContain('this linked change was already merged: nothing to do');
  });

  itOnce('a user without write access gets 😕 and nothing is merged or said', async () => {
    const { w } = await evaluatedSet(scenario);
    const comment = await commentMerge(w, 'mallory');
    expect(w.standIn.reactions(Number(comment.id)).map((r) => r.content)).toEqual(['confused']);
    expect(mergeCalls(w)).toEqual([]);
    for (const repo of ['schema', 'api']) {
      expect(w.standIn.comments('acme', repo, 1).filter((c) => c.body?.includes(MERGE_MARKER))).toEqual([]);
      expect(w.standIn.pullRequest('acme', repo, 1).merged).toBe(false);
    }
  });

  it('merges nothing while a member fails a required check; a merge GitHub refuses midway leaves a half-merged set every member names', async () => {
    const { w, api } = await evaluatedSet(scenario);
    requireChecks(w.standIn.state, 'acme', 'api', 'main', ['ci'], 'rules');
    setCommitStatus(w.standIn.state, 'acme', 'api', api.head.sha, 'ci', 'failure');
    const apiTip = await tipOf(w, 'api');
    await commentMerge(w, 'alice');

    // Every member is checked before anything merges: the producer is not merged alone.
    expect(mergeCalls(w)).toEqual([]);
    for (const repo of ['schema', 'api']) {
      const body = mergeComment(w, repo);
      expect(body).toMatch(
        /^⛔ \*\*Not merged\*\* — acme\/api#1 was refused: required check "ci" is failing \(failure\)\. Nothing was merged\.$/m,
      );
      expect(w.standIn.pullRequest('acme', repo, 1).merged).toBe(false);
    }

    // CI passes, but GitHub refuses the consumer's merge after the producer's went in.
    setCommitStatus(w.standIn.state, 'acme', 'api', api.head.sha, 'ci', 'success');
    w.standIn.failNext({
      status: 405,
      method: 'PUT',
      path: '/repos/acme/api/pulls/1/merge',
      message: 'Base branch was modified',
    });
    await commentMerge(w, 'alice');
    expect(mergeCalls(w).map((r) => [r.path, r.status])).toEqual([
      ['/repos/acme/schema/pulls/1/merge', 200],
      ['/repos/acme/api/pulls/1/merge', 405],
    ]);
    expect(await tipOf(w, 'api')).toBe(apiTip);
    for (const repo of ['schema', 'api']) {
      const body = mergeComment(w, repo);
      expect(body).toMatch(
        /^🚨 \*\*Half-merged\*\* — acme\/api#1 was refused: GitHub refused the merge: Base branch was modified\.$/m,
      );
      expect(body).toContain('**1 of 2** pull requests of this linked change are merged and 1 is not');
      expect(body).toMatch(/^\| `acme\/schema#1` \| `[0-9a-f]{7}` \| ✅ merged as `[0-9a-f]{7}` \|$/m);
    }

    // GitHub announces the producer's merge: the consumer is evaluated again, alone, on the
    // producer's merged base. The same command merges the rest, and the producer merged earlier
    // stays in the set's merge comment.
    evaluateWith(w, 'local');
    await w.sendPull('closed', 'schema', 1);
    await w.settle();
    expect(w.tandemChecks('api', api.head.sha).map((c) => c.conclusion)).toEqual(['success']);
    evaluateWith(w, 'actions');
    await commentMerge(w, 'alice');
    expect(mergeCalls(w).map((r) => r.path)).toEqual([
      '/repos/acme/schema/pulls/1/merge',
      '/repos/acme/api/pulls/1/merge',
      '/repos/acme/api/pulls/1/merge',
    ]);
    for (const repo of ['schema', 'api']) {
      const body = mergeComment(w, repo);
      expect(body).toMatch(/^✅ \*\*Merged\*\* — all 2 pull requests/m);
      expect(body).toMatch(/^\| `acme\/schema#1` \| `[0-9a-f]{7}` \| ✅ merged as `[0-9a-f]{7}` \|$/m);
    }
    expect(await parentsOf(w, 'api', await tipOf(w, 'api'))).toEqual([apiTip, api.head.sha]);
  });

  itOnce('merges nothing when a head moved after the evaluation, and says which and why', async () => {
    const { w, api } = await evaluatedSet(scenario);
    const moved = await commitOn(w.repos.api!, 'feature', { 'later.js': 'x\n' });
    w.standIn.updatePullRequest('acme', 'api', 1, { headSha: moved });
    await commentMerge(w, 'alice');
    expect(mergeCalls(w)).toEqual([]);
    for (const repo of ['schema', 'api']) {
      const body = mergeComment(w, repo);
      expect(body).toContain(
        `⛔ **Not merged** — acme/api#1 was refused: its head moved to ${moved.slice(0, 7)} after the evaluation (of ${api.head.sha.slice(0, 7)}): it must be evaluated again. Nothing was merged.`,
      );
      expect(body).toMatch(/^\| `acme\/schema#1` \| `[0-9a-f]{7}` \| ⏸ not attempted \|$/m);
      expect(w.standIn.pullRequest('acme', repo, 1).merged).toBe(false);
    }
  });

  itOnce('refuses an unresolved set', async () => {
    const { w } = await evaluatedSet(scenario, API_BUG);
    await commentMerge(w, 'alice');
    expect(mergeCalls(w)).toEqual([]);
    for (const repo of ['schema', 'api']) {
      expect(mergeComment(w, repo)).toContain(
        '⛔ **Not merged** — the linked change is not resolved. Nothing was merged.',
      );
      expect(w.standIn.pullRequest('acme', repo, 1).merged).toBe(false);
    }
  });
});
