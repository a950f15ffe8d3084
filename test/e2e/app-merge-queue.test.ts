/**
 * The App gating GitHub's merge queue, end to end: `merge_group` webhooks from the stand-in, the
 * queued merge commit built in the repository's real git remote (base + the PR merged, as GitHub
 * builds `gh-readonly-queue/main/pr-N-<sha>`), the real engine in Docker, and the `Tandem` check
 * run on the merge group's head SHA — always completed, whatever happens.
 *
 * Both stores: the gated group and the resumed group run on PostgreSQL too (merge_groups rows
 * written, read back after a restart); the other verdicts take the same store paths, run once.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { INFRA_TITLE } from '../../src/core/infra-wording.ts';
import { git, gitOut } from '../../src/engine/git/git.ts';
import { type Scenario, useScenario } from '../helpers/app-scenario.ts';
import { type Files, makeTempDir, pushRef, revParse, writeFiles } from '../helpers/git-fixtures.ts';
import { checkExchange } from '../support/github-openapi.ts';
import { API_BUG, API_OK, APP_BACKENDS, ObservedExecutor, SCHEMA_OK, sqliteOnly } from './app-harness.ts';

async function observed(opts: { holdFirst?: boolean } = {}): Promise<ObservedExecutor> {
  return new ObservedExecutor(join(await makeTempDir('tandem-merge-queue-'), 'cache'), opts);
}

const IDENTITY = {
  GIT_AUTHOR_NAME: 'GitHub',
  GIT_AUTHOR_EMAIL: 'noreply@github.com',
  GIT_COMMITTER_NAME: 'GitHub',
  GIT_COMMITTER_EMAIL: 'noreply@github.com',
};

interface QueuedGroup {
  headSha: string;
  headRef: string;
  baseSha: string;
}

/**
 * What GitHub's merge queue does for PR `number` of `repo`: the base branch tip, then `ahead`
 * (changes of entries ahead of it in the queue, if any), then the PR merged in, published as
 * `refs/heads/gh-readonly-queue/main/pr-<number>-<head>`.
 */
async function queueMergeGroup(w: Scenario, repo: 'schema' | 'api', number: number, ahead?: Files) {
  const fixture = w.repos[repo]!;
  const cwd = fixture.work;
  const baseSha = await gitOut(['rev-parse', 'refs/heads/main'], { cwd: fixture.bare });
  const prHead = w.standIn.pullRequest('acme', repo, number).head.sha;
  await git(['fetch', '--quiet', 'origin'], { cwd });
  await git(['checkout', '--quiet', '--detach', baseSha], { cwd });
  if (ahead) {
    await writeFiles(cwd, ahead);
    await git(['add', '--all'], { cwd });
    await git(['commit', '--quiet', '-m', 'Merge pull request #99 (ahead in the queue)'], {
      cwd,
      env: IDENTITY,
    });
  }
  await git(['merge', '--quiet', '--no-ff', '-m', `Merge pull request #${number}`, prHead], {
    cwd,
    env: IDENTITY,
  });
  const headSha = await revParse(fixture, 'HEAD');
  const headRef = `refs/heads/gh-readonly-queue/main/pr-${number}-${prHead}`;
  await pushRef(fixture, headSha, headRef);
  return { headSha, headRef, baseSha } satisfies QueuedGroup;
}

function sendMergeGroup(
  w: Scenario,
  repo: string,
  action: 'checks_requested' | 'destroyed',
  group: QueuedGroup,
  reason?: 'merged' | 'invalidated' | 'dequeued',
) {
  return w.sender.mergeGroup(action, {
    repository: w.standIn.repository('acme', repo) as unknown as Record<string, unknown>,
    installationId: w.installationId,
    ...group,
    ...(reason ? { reason } : {}),
  });
}

/** Sends `checks_requested` and waits until the App has completed (or given up on) the group. */
async function gate(w: Scenario, repo: string, group: QueuedGroup) {
  const res = await sendMergeGroup(w, repo, 'checks_requested', group);
  expect(res.status).toBe(200);
  await w.app.runtime.mergeGroups.idle();
  const checks = w.tandemChecks(repo, group.headSha);
  expect(checks).toHaveLength(1);
  return checks[0]!;
}

/** The App's check-run traffic to the stand-in, checked against GitHub's OpenAPI description. */
function checkRunTraffic(w: Scenario) {
  const exchanges = w.standIn.requests.filter((r) => r.path.includes('/check-runs'));
  expect(exchanges.some((e) => e.method === 'PATCH')).toBe(true);
  return exchanges.flatMap((e) => checkExchange(e));
}

function statuses(check: ReturnType<Scenario['tandemChecks']>[number]): string[] {
  return (check.history as Array<{ status?: string; conclusion?: string }>)
    .map((h) => h.status ?? (h.conclusion ? 'completed' : undefined))
    .filter((s): s is string => s !== undefined);
}

/** The linked change of app-harness: acme/api#1 uses the `total` field acme/schema#1 adds. */
async function linkedChange(w: Scenario) {
  const schema = await w.openPull('schema', SCHEMA_OK, 'Adds total.');
  const api = await w.openPull('api', { 'index.js': API_OK }, 'Uses total.\n\nDepends-On: acme/schema#1');
  return { schema, api };
}

describe.each(APP_BACKENDS)('App: merge queue gating (merge_group) (%s)', (backend) => {
  const scenario = useScenario({ backend });
  const itOnce = sqliteOnly(backend);
  it('passes the queued merge commit of a linked change that resolves, on the group head SHA', async () => {
    const executor = await observed();
    const w = await scenario().with({ executor }).start();
    const { schema, api } = await linkedChange(w);
    // The App has seen the PRs as usual (their own evaluation waits for its debounce window).
    await w.sendPull('opened', 'schema', schema.number);
    await w.sendPull('opened', 'api', api.number);
    const group = await queueMergeGroup(w, 'api', api.number);

    const check = await gate(w, 'api', group);
    expect(check.status).toBe('completed');
    expect(check.conclusion).toBe('success');
    expect(statuses(check)).toEqual(['queued', 'in_progress', 'completed']);
    expect(check.output.title).toMatch(/^Tandem: resolved/);
    expect(check.output.summary).toContain(`**Merge group** \`${group.headSha.slice(0, 7)}\``);
    // The set line shows acme/api at the queued commit; no `/tandem run` (it re-runs PR checks only).
    expect(check.output.summary).toContain(`acme/api#1 [\`${group.headSha.slice(0, 7)}\`]`);
    expect(check.output.summary).toContain('acme/schema#1');
    expect(check.output.summary).not.toContain('/tandem run');

    // acme/api exactly at the queued commit (nothing merged onto it), acme/schema's head merged onto its base.
    expect(executor.runs).toHaveLength(1);
    const spec = executor.runs[0]!.spec;
    expect(spec.matrix).toBe('leave-one-out');
    expect(spec.targets.find((t) => t.repo === 'acme/api')).toMatchObject({
      base: group.baseSha,
      head: group.headSha,
      merge: false,
    });
    expect(spec.targets.find((t) => t.repo === 'acme/schema')).toMatchObject({
      head: schema.head.sha,
      merge: true,
    });
    const report = executor.runs[0]!.report!;
    expect(report.outcome).toBe('resolved');
    expect(report.targets.find((t) => t.repo === 'acme/api')?.head).toMatchObject({
      sha: group.headSha,
      kind: 'branch',
    });
    // The queue's check is the only thing written: no comment, no check on the PR heads.
    expect(w.stickyComments('api', api.number)).toEqual([]);
    expect(w.tandemChecks('api', api.head.sha).every((c) => c.status === 'queued')).toBe(true);
    expect(checkRunTraffic(w)).toEqual([]);
  });

  itOnce(
    'fails the group when the queued commit breaks the linked change, though the PR head is fine',
    async () => {
      const w = await scenario()
        .with({ executor: await observed() })
        .start();
      const { api } = await linkedChange(w);
      // An entry ahead in the queue pointed the package at another entry file with a wrong sum;
      // it touches no file of the PR, so the PR still merges cleanly on top of it.
      const group = await queueMergeGroup(w, 'api', api.number, {
        'package.json': '{ "main": "legacy.js" }\n',
        'legacy.js': API_BUG,
      });
      const check = await gate(w, 'api', group);
      expect(check.status).toBe('completed');
      expect(check.conclusion).toBe('failure');
      expect(check.output.title).toMatch(/^Tandem: not resolved/);
      expect(check.output.summary).toContain('**Merge group**');
    },
  );

  itOnce(
    'completes a neutral check when the group holds no PR Tandem knows, or no suite covers the repository',
    async () => {
      const w = await scenario()
        .with({ executor: await observed() })
        .start();
      w.standIn.addRepo({ owner: 'acme', name: 'docs', cloneUrl: `${w.gitServer.url}/acme/docs.git` });
      const head = 'c'.repeat(40);
      const unknownPr: QueuedGroup = {
        headSha: 'a'.repeat(40),
        headRef: `refs/heads/gh-readonly-queue/main/pr-42-${head}`,
        baseSha: 'b'.repeat(40),
      };
      const noPr = await gate(w, 'api', unknownPr);
      expect(noPr.conclusion).toBe('neutral');
      expect(noPr.output.title).toBe('Tandem: nothing to gate — no pull request known');
      expect(noPr.output.summary).toContain('acme/api#42');

      const noSuite = await gate(w, 'docs', { ...unknownPr, headSha: 'd'.repeat(40) });
      expect(noSuite.conclusion).toBe('neutral');
      expect(noSuite.output.summary).toContain('No suite in `tandem.yml` covers acme/docs');
      expect(statuses(noSuite)).toEqual(['queued', 'in_progress', 'completed']);
      expect(checkRunTraffic(w)).toEqual([]);

      // A delivery without the fields Tandem relies on is answered, logged and ignored.
      const before = w.standIn.checkRuns('acme', 'api').length;
      const res = await w.sender.send('merge_group', {
        action: 'checks_requested',
        merge_group: { head_sha: 'e'.repeat(40), head_ref: unknownPr.headRef },
        repository: w.standIn.repository('acme', 'api'),
        installation: { id: w.installationId },
      });
      expect(res.status).toBe(200);
      await w.app.runtime.mergeGroups.idle();
      expect(w.standIn.checkRuns('acme', 'api')).toHaveLength(before);
    },
  );

  itOnce(
    'reports a queued commit the engine cannot fetch as an infrastructure error, not a verdict',
    async () => {
      const w = await scenario()
        .with({ executor: await observed() })
        .start();
      const { api } = await linkedChange(w);
      const group = await queueMergeGroup(w, 'api', api.number);
      // GitHub names a commit the repository does not serve (e.g. the group branch already gone).
      const missing = { ...group, headSha: 'f'.repeat(40) };
      const check = await gate(w, 'api', missing);
      expect(check.status).toBe('completed');
      expect(check.conclusion).toBe('failure');
      expect(check.output.title).toBe(INFRA_TITLE);
      expect(check.output.summary).toContain('**Merge group** `fffffff`');
      expect(check.output.summary).toContain(`unknown ref '${'f'.repeat(40)}'`);
    },
  );

  itOnce('cancels the check when the group is destroyed while it is evaluated', async () => {
    const executor = await observed({ holdFirst: true });
    const w = await scenario().with({ executor }).start();
    const { api } = await linkedChange(w);
    const group = await queueMergeGroup(w, 'api', api.number);
    await sendMergeGroup(w, 'api', 'checks_requested', group);
    await executor.started(1);
    expect(w.tandemChecks('api', group.headSha).map((c) => c.status)).toEqual(['in_progress']);

    await sendMergeGroup(w, 'api', 'destroyed', group, 'dequeued');
    await w.app.runtime.mergeGroups.idle();
    expect(executor.runs[0]!.aborted).toBe(true);
    const checks = w.tandemChecks('api', group.headSha);
    expect(checks).toHaveLength(1);
    expect(checks[0]!.status).toBe('completed');
    expect(checks[0]!.conclusion).toBe('cancelled');
    expect(checks[0]!.output.summary).toContain('GitHub destroyed this merge group (dequeued)');
  });

  it('resumes a group that was running when the App restarted, on the same check run', async () => {
    const held = await observed({ holdFirst: true });
    const w = await scenario().with({ executor: held }).start();
    const { api } = await linkedChange(w);
    const group = await queueMergeGroup(w, 'api', api.number);
    await sendMergeGroup(w, 'api', 'checks_requested', group);
    await held.started(1);

    const fresh = await observed();
    await w.restartApp(fresh);
    await w.app.runtime.mergeGroups.idle();
    expect(held.runs[0]!.aborted).toBe(true);
    expect(fresh.runs).toHaveLength(1);
    const checks = w.tandemChecks('api', group.headSha);
    expect(checks).toHaveLength(1);
    expect(checks[0]!.conclusion).toBe('success');
    expect(statuses(checks[0]!)).toEqual(['queued', 'in_progress', 'in_progress', 'completed']);
  });
});
