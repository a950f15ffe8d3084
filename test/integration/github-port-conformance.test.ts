/**
 * The in-memory GitHub port (test/support/memory-github.ts) answers as the Octokit port does over
 * the HTTP stand-in (which itself conforms to GitHub's OpenAPI description): the same repositories,
 * PRs and permissions seeded into both, the same questions asked of both, the same answers. Unit
 * tests of the App's decisions on the fake are only worth what this holds.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GitHubPort } from '../../src/app/port/github-port.ts';
import { octokitPort } from '../../src/app/port/octokit-port.ts';
import { pullKey } from '../../src/core/pull-ref.ts';
import type { PullInfo } from '../../src/core/pull-request.schema.ts';
import type { WorkflowRunInfo } from '../../src/github/actions.ts';
import { type StandIn, startGitHubStandIn } from '../support/github-standin/index.ts';
import { MemoryGitHub } from '../support/memory-github.ts';
import { standInClient } from '../unit/app-fixtures.ts';

const SHA = (n: number) => String(n).repeat(40).slice(0, 40);
const PULLS = [
  { repo: 'api', number: 1, body: 'Depends-On: acme/secret#2', headRef: 'feature', author: 'alice' },
  { repo: 'secret', number: 2, body: 'Schema change.', headRef: 'feature', author: 'bob' },
  {
    repo: 'api',
    number: 3,
    body: 'Depends-On: acme/secret#2',
    headRef: 'feature',
    author: 'mallory',
    fork: true,
  },
] as const;

let standIn: StandIn;
/** Run ids as the stand-in numbered them (the fake is seeded with the same). */
const RUNS = { done: 0, running: 0, other: 0 };
const ZIP = Buffer.from('PK\u0003\u0004 not really a zip, carried as bytes');
const ports: Record<'octokit' | 'memory', GitHubPort> = {} as never;

beforeAll(async () => {
  standIn = await startGitHubStandIn();
  const memory = new MemoryGitHub();
  for (const [name, visibility] of [
    ['api', 'public'],
    ['secret', 'private'],
  ] as const) {
    standIn.addRepo({ owner: 'acme', name, private: visibility === 'private' });
    memory.addRepo(`acme/${name}`, { visibility });
  }
  standIn.addRepo({ owner: 'mallory', name: 'api' });
  for (const p of PULLS) {
    const fork = 'fork' in p;
    standIn.addPullRequest({
      owner: 'acme',
      repo: p.repo,
      number: p.number,
      title: `PR ${p.number}`,
      body: p.body,
      headRef: p.headRef,
      headSha: SHA(p.number),
      baseSha: SHA(9),
      user: p.author,
      ...(fork ? { headRepo: { owner: 'mallory', name: 'api' } } : {}),
    });
    memory.addPull({
      repo: `acme/${p.repo}`,
      number: p.number,
      title: `PR ${p.number}`,
      body: p.body,
      headRef: p.headRef,
      headSha: SHA(p.number),
      author: p.author,
      ...(fork ? { headRepo: 'mallory/api' } : {}),
    });
  }
  standIn.setPermission('acme', 'api', 'alice', 'write');
  memory.grantWrite('acme/api', 'alice');
  standIn.setPermission('acme', 'api', 'reader', 'read');
  // The evaluator repository: its dispatchable workflow, runs the test plays, one artifact.
  standIn.addRepo({ owner: 'acme', name: 'suites', private: true });
  memory.addRepo('acme/suites', { visibility: 'private' });
  standIn.setFile(
    'acme',
    'suites',
    '.github/workflows/tandem.yml',
    readFileSync(new URL('../../examples/workflows/tandem.yml', import.meta.url), 'utf8'),
  );
  memory.actions.addWorkflow('acme/suites', 'tandem.yml');
  const seeds = [
    ['done', 'tandem.yml', 'Tandem #3 acme/api#1', 'completed', 'success'],
    ['running', 'tandem.yml', 'Tandem #4 acme/api#1', 'in_progress', null],
    ['other', 'other.yml', 'Tandem #4 acme/api#1', 'queued', null],
  ] as const;
  for (const [which, workflow, title, status, conclusion] of seeds) {
    const run = standIn.addWorkflowRun({
      owner: 'acme',
      repo: 'suites',
      workflowId: workflow,
      displayTitle: title,
      status,
      conclusion,
    });
    RUNS[which] = run.id;
    memory.actions.addRun({
      id: run.id,
      repo: 'acme/suites',
      workflow,
      title,
      status,
      conclusion,
      createdAt: run.created_at,
    });
  }
  standIn.addArtifact({ owner: 'acme', repo: 'suites', runId: RUNS.done, name: 'tandem-report', zip: ZIP });
  memory.actions.addArtifact('acme/suites', RUNS.done, 'tandem-report', ZIP);
  ports.octokit = octokitPort(standInClient(standIn));
  ports.memory = memory;
});
afterAll(async () => {
  await standIn?.close();
});

/** What the App's rooms read of a PR (not the URLs, which name each host). */
const facts = (p: PullInfo | undefined) =>
  p && {
    key: pullKey(p.ref),
    state: p.state,
    title: p.title,
    body: p.body,
    headSha: p.headSha,
    headRef: p.headRef,
    headRepo: p.headRepo,
    repo: p.repo,
    author: p.author,
    visibility: p.visibility,
  };

/** What the hand-off reads of a run (not its URL, which names each host). */
const runFacts = (r: WorkflowRunInfo | undefined) =>
  r && { id: r.id, title: r.title, path: r.path, status: r.status, conclusion: r.conclusion };

describe.each(['octokit', 'memory'] as const)('the GitHub port (%s)', (which) => {
  const gh = () => ports[which];

  it('reads PRs as the App relies on them, and a missing one as undefined', async () => {
    expect(facts(await gh().pull({ owner: 'acme', repo: 'api', number: 1 }))).toEqual({
      key: 'acme/api#1',
      state: 'open',
      title: 'PR 1',
      body: 'Depends-On: acme/secret#2',
      headSha: SHA(1),
      headRef: 'feature',
      headRepo: 'acme/api',
      repo: 'acme/api',
      author: 'alice',
      visibility: 'public',
    });
    expect(facts(await gh().pull({ owner: 'acme', repo: 'api', number: 3 }))?.headRepo).toBe('mallory/api');
    expect(await gh().pull({ owner: 'acme', repo: 'api', number: 99 })).toBeUndefined();
  });

  it('says how private a repository is, and who may write to it', async () => {
    expect((await gh().repo('acme/secret')).visibility).toBe('private');
    expect((await gh().repo('acme/api')).defaultBranch).toBe('main');
    expect(await gh().canWrite('acme/api', 'alice')).toBe(true);
    expect(await gh().canWrite('acme/api', 'reader')).toBe(false);
    expect(await gh().canWrite('acme/api', 'mallory')).toBe(false);
  });

  it("lists only the owner's own branches by name, and finds PRs linking to one by search", async () => {
    const peers = await gh().openPullsWithHead('acme/api', 'feature');
    expect(peers.map((p) => pullKey(p.ref))).toEqual(['acme/api#1']);
    const linking = await gh().searchLinkingPulls('acme', { owner: 'acme', repo: 'secret', number: 2 });
    expect(linking?.map(pullKey).sort()).toEqual(['acme/api#1', 'acme/api#3']);
  });

  it('creates, finds, completes and reopens its Tandem check on a head', async () => {
    const sha = SHA(2);
    const id = await gh().createQueuedCheck('acme/secret', sha, 'acme/secret#2', 'waiting');
    expect(await gh().tandemChecksOn('acme/secret', sha, 'acme/secret#2')).toEqual([
      { id, completed: false },
    ]);
    await gh().completeCheck('acme/secret', id, 'success', { title: 'Tandem: resolved', summary: 'ok' });
    expect(await gh().tandemChecksOn('acme/secret', sha, 'acme/secret#2')).toEqual([{ id, completed: true }]);
    await gh().reopenCheck('acme/secret', id, 'again');
    expect(await gh().tandemChecksOn('acme/secret', sha, 'acme/secret#2')).toEqual([
      { id, completed: false },
    ]);
    expect(await gh().tandemChecksOn('acme/secret', sha, 'acme/other#1')).toEqual([]);
  });

  it('moves its check to in_progress and links it to a run; the check stays open', async () => {
    const sha = SHA(1);
    const id = await gh().createQueuedCheck('acme/api', sha, 'acme/api#1', 'waiting');
    await gh().markInProgress('acme/api', id, 'evaluating');
    await gh().linkCheck('acme/api', id, {
      url: 'https://github.test/acme/suites/actions/runs/1',
      title: 'Tandem: in the evaluator workflow',
      summary: 'linked',
    });
    expect(await gh().tandemChecksOn('acme/api', sha, 'acme/api#1')).toEqual([{ id, completed: false }]);
  });

  it("dispatches a workflow that declares workflow_dispatch; refuses one that is not there with GitHub's 404", async () => {
    const inputs = {
      'pull-requests': 'acme/api#1',
      suite: 's/suite.yml',
      matrix: 'full',
      'evaluation-id': '4',
    };
    await expect(gh().dispatchWorkflow('acme/suites', 'tandem.yml', 'main', inputs)).resolves.toBeUndefined();
    const refused = await gh()
      .dispatchWorkflow('acme/suites', 'missing.yml', 'main', inputs)
      .catch((e: { status?: number }) => e);
    expect((refused as { status?: number }).status).toBe(404);
  });

  it("reads a run by id (undefined when none) and a workflow's dispatched runs since a moment, newest first", async () => {
    expect(runFacts(await gh().workflowRun('acme/suites', RUNS.done))).toEqual({
      id: RUNS.done,
      title: 'Tandem #3 acme/api#1',
      path: '.github/workflows/tandem.yml',
      status: 'completed',
      conclusion: 'success',
    });
    expect(await gh().workflowRun('acme/suites', 987_654)).toBeUndefined();
    const since = new Date(Date.now() - 60_000);
    const recent = await gh().recentWorkflowRuns('acme/suites', 'tandem.yml', since);
    expect(recent.map(runFacts)).toEqual([
      {
        id: RUNS.running,
        title: 'Tandem #4 acme/api#1',
        path: '.github/workflows/tandem.yml',
        status: 'in_progress',
        conclusion: null,
      },
      expect.objectContaining({ id: RUNS.done }),
    ]);
    expect(
      await gh().recentWorkflowRuns('acme/suites', 'tandem.yml', new Date(Date.now() + 3_600_000)),
    ).toEqual([]);
  });

  it("downloads a run's artifact by name, and says when the run left none", async () => {
    expect(await gh().runArtifact('acme/suites', RUNS.done, 'tandem-report')).toEqual(ZIP);
    expect(await gh().runArtifact('acme/suites', RUNS.running, 'tandem-report')).toBeUndefined();
  });
});
