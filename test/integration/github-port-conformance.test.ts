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
import { MERGE_MARKER } from '../../src/github/sticky-comment.ts';
import { type StandIn, startGitHubStandIn } from '../support/github-standin/index.ts';
import { requireChecks, setCommitStatus } from '../support/github-standin/routes/merges.ts';
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
  // Merged by the tests of `/tandem merge`'s reads (one merges, one is held by a failing check).
  { repo: 'api', number: 4, body: 'Ready.', headRef: 'ready', author: 'alice' },
  { repo: 'api', number: 5, body: 'Red.', headRef: 'red', author: 'alice' },
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
  // `main` of acme/api requires `ci` (by a ruleset); #4's head passes it, #5's fails it.
  requireChecks(standIn.state, 'acme', 'api', 'main', ['ci'], 'rules');
  memory.merges.requireChecks('acme/api', 'main', ['ci']);
  for (const [n, state] of [
    [4, 'success'],
    [5, 'failure'],
  ] as const) {
    setCommitStatus(standIn.state, 'acme', 'api', SHA(n), 'ci', state);
    memory.merges.addStatus('acme/api', SHA(n), 'ci', state);
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
    // Merged by the tests below or not: neither #4 nor #5 names acme/secret#2.
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

  it('writes its sticky comment once, then edits it, and leaves it when nothing changed; another marker is another comment', async () => {
    const pr = { owner: 'acme', repo: 'secret', number: 2 };
    const first = await gh().upsertComment(pr, 'Tandem: resolved');
    expect(first.action).toBe('created');
    expect(await gh().upsertComment(pr, 'Tandem: resolved')).toEqual({ id: first.id, action: 'unchanged' });
    expect(await gh().upsertComment(pr, 'Tandem: unresolved')).toEqual({ id: first.id, action: 'updated' });
    const merge = await gh().upsertComment(pr, 'Merged.', MERGE_MARKER);
    expect(merge.action).toBe('created');
    expect(merge.id).not.toBe(first.id);
  });

  it("updates a running check's text and leaves it open", async () => {
    const id = await gh().createQueuedCheck('acme/api', SHA(3), 'acme/api#3', 'waiting');
    await gh().markInProgress('acme/api', id, 'evaluating');
    await gh().updateCheckOutput('acme/api', id, { title: 'Tandem: 2 of 4', summary: 'running' });
    expect(await gh().tandemChecksOn('acme/api', SHA(3), 'acme/api#3')).toEqual([{ id, completed: false }]);
  });

  it("reads what `/tandem merge` checks: a live PR, its branch's rules and required checks, its head's checks", async () => {
    const ref = { owner: 'acme', repo: 'api', number: 4 };
    expect(await gh().livePull(ref)).toEqual({
      state: 'open',
      headSha: SHA(4),
      draft: false,
      mergeable: true,
      mergeableState: 'clean',
      baseRef: 'main',
      mergeCommitSha: null,
    });
    expect(await gh().livePull({ ...ref, number: 99 })).toBeUndefined();
    expect(await gh().requiredChecks('acme/api', 'main')).toEqual(['ci']);
    expect(await gh().requiredChecks('acme/secret', 'main')).toEqual([]);
    expect(await gh().checksOn('acme/api', SHA(5))).toEqual({
      runs: [],
      statuses: [{ context: 'ci', state: 'failure' }],
    });
    const rules = await gh().mergeRules('acme/api', 'main');
    expect(rules).toEqual({ approvals: 0, codeOwners: false, signatures: false, mergeQueue: false });
    expect(await gh().memberFacts(ref, 'main', rules)).toEqual({
      approvers: [],
      ownersByFile: [],
      unsignedCommits: [],
    });
  });

  it("merges at the evaluated head only, with GitHub's refusals as values: a moved head, a failing required check, a merged PR", async () => {
    const ref = { owner: 'acme', repo: 'api', number: 4 };
    expect(await gh().mergePull(ref, SHA(8))).toEqual({
      merged: false,
      status: 409,
      reason:
        'its head moved after the evaluation (GitHub: Head branch was modified. Review and try the merge again.)',
    });
    expect(await gh().mergePull({ ...ref, number: 5 }, SHA(5))).toEqual({
      merged: false,
      status: 405,
      reason: 'GitHub refused the merge: Required status check "ci" is failing.',
    });
    const merged = await gh().mergePull(ref, SHA(4));
    expect(merged).toEqual({ merged: true, sha: expect.stringMatching(/^[0-9a-f]{40}$/) });
    const live = await gh().livePull(ref);
    expect(live).toMatchObject({
      state: 'merged',
      mergeable: null,
      mergeCommitSha: merged.merged && merged.sha,
    });
    expect((await gh().pull(ref))?.state).toBe('merged');
    expect(await gh().mergePull(ref, SHA(4))).toEqual({
      merged: false,
      status: 405,
      reason: 'GitHub refused the merge: Pull Request is not mergeable',
    });
  });
});
