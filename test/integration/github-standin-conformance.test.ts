/**
 * The stand-in against GitHub itself: it refuses what GitHub refuses (workflow dispatches with
 * undeclared or too many inputs, to a workflow without `workflow_dispatch`, a missing workflow or
 * an unknown ref; check-run output over 65,535 *bytes*), and every request and answer of the
 * routes Tandem uses conforms to GitHub's published OpenAPI description (@octokit/openapi).
 */
import { Probot } from 'probot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appKeys, TEST_APP_ID } from '../support/app-keys.ts';
import { checkExchange } from '../support/github-openapi.ts';
import { type StandIn, startGitHubStandIn } from '../support/github-standin/index.ts';
import { setBranch } from '../support/github-standin/routes/repos.ts';
import { MAX_DISPATCH_INPUTS } from '../support/github-standin/workflow-dispatch-rules.ts';

const WORKFLOW = `name: Tandem
on:
  workflow_dispatch:
    inputs:
      pull-requests: { required: true }
      matrix: { default: auto }
  repository_dispatch:
`;
let standIn: StandIn;
let probot: Probot;
const gh = () => probot.auth(standIn.installationId('acme'));

beforeAll(async () => {
  standIn = await startGitHubStandIn();
  standIn.addRepo({ owner: 'acme', name: 'api' });
  standIn.setFile('acme', 'api', 'README.md', '# api\n');
  standIn.setPermission('acme', 'api', 'alice', 'write');
  setBranch(standIn.state, 'acme', 'api', 'main', 'a'.repeat(40));
  standIn.addRepo({ owner: 'acme', name: 'suites', private: true });
  standIn.setFile('acme', 'suites', '.github/workflows/tandem.yml', WORKFLOW);
  standIn.setFile('acme', 'suites', '.github/workflows/push-only.yml', 'on: push\njobs: {}\n');
  standIn.addPullRequest({
    owner: 'acme',
    repo: 'api',
    title: 'API change',
    body: 'Depends-On: acme/web#1',
    headRef: 'feat',
    headSha: 'b'.repeat(40),
    baseSha: 'a'.repeat(40),
    user: 'alice',
  });
  probot = new Probot({
    appId: TEST_APP_ID,
    privateKey: appKeys().privateKeyPem,
    baseUrl: standIn.apiUrl,
    logLevel: 'fatal',
  });
});

afterAll(async () => {
  await standIn?.close();
});

const dispatch = async (workflow: string, ref: string, inputs: Record<string, string>) => {
  const client = await gh();
  return client.rest.actions
    .createWorkflowDispatch({ owner: 'acme', repo: 'suites', workflow_id: workflow, ref, inputs })
    .then(
      (r) => ({ status: r.status, message: '' }),
      (e: { status: number; response?: { data?: { message?: string } } }) => ({
        status: e.status,
        message: e.response?.data?.message ?? '',
      }),
    );
};

describe('the stand-in refuses what GitHub refuses', () => {
  it('workflow dispatches: declared inputs only, at most 25, a workflow_dispatch trigger, a known ref', async () => {
    expect(await dispatch('tandem.yml', 'main', { 'pull-requests': 'acme/api#1' })).toEqual({
      status: 204,
      message: '',
    });
    expect(await dispatch('tandem.yml', 'main', { 'pull-requests': 'x', shard: '1/2' })).toEqual({
      status: 422,
      message: 'Unexpected inputs provided: ["shard"]',
    });
    const many = Object.fromEntries(
      Array.from({ length: MAX_DISPATCH_INPUTS + 1 }, (_, i) => [`i${i}`, 'v']),
    );
    expect((await dispatch('tandem.yml', 'main', many)).message).toMatch(/^Too many inputs provided: 26/);
    expect(await dispatch('tandem.yml', 'main', { matrix: 'full' })).toEqual({
      status: 422,
      message: "Required input 'pull-requests' not provided",
    });
    expect(await dispatch('push-only.yml', 'main', {})).toEqual({
      status: 422,
      message: "Workflow does not have 'workflow_dispatch' trigger",
    });
    expect((await dispatch('missing.yml', 'main', {})).status).toBe(404);
    expect(await dispatch('tandem.yml', 'no-such-branch', { 'pull-requests': 'x' })).toEqual({
      status: 422,
      message: 'No ref found for: no-such-branch',
    });
  });

  it('check-run output over 65,535 bytes, even under 65,535 characters', async () => {
    const client = await gh();
    const { data: run } = await client.rest.checks.create({
      owner: 'acme',
      repo: 'api',
      name: 'Tandem',
      head_sha: 'b'.repeat(40),
    });
    const summary = '✅'.repeat(20_000); // 20,000 characters, 60,000 bytes
    await client.rest.checks.update({
      owner: 'acme',
      repo: 'api',
      check_run_id: run.id,
      output: { title: 't', summary },
    });
    await expect(
      client.rest.checks.update({
        owner: 'acme',
        repo: 'api',
        check_run_id: run.id,
        output: { title: 't', summary: `${summary}${'✅'.repeat(2_000)}` },
      }),
    ).rejects.toMatchObject({ status: 422 });
  });
});

describe("the stand-in's traffic against GitHub's OpenAPI description", () => {
  it('requests and answers of the routes Tandem uses conform', async () => {
    const client = await gh();
    const repo = { owner: 'acme', repo: 'api' };
    await client.rest.pulls.get({ ...repo, pull_number: 1 });
    await client.rest.pulls.list({ ...repo, state: 'open' });
    const { data: run } = await client.rest.checks.create({
      ...repo,
      name: 'Tandem',
      head_sha: 'b'.repeat(40),
      status: 'queued',
    });
    await client.rest.checks.update({
      ...repo,
      check_run_id: run.id,
      conclusion: 'failure',
      output: { title: 'Tandem: not resolved', summary: 's', text: 't' },
      actions: [{ label: 'Re-run', identifier: 'rerun', description: 'Evaluate again' }],
    });
    await client.rest.checks.listForRef({ ...repo, ref: 'b'.repeat(40) });
    const { data: comment } = await client.rest.issues.createComment({
      ...repo,
      issue_number: 1,
      body: 'hi',
    });
    await client.rest.issues.updateComment({ ...repo, comment_id: comment.id, body: 'edited' });
    await client.rest.issues.listComments({ ...repo, issue_number: 1 });
    await client.rest.repos.getContent({
      owner: 'acme',
      repo: 'suites',
      path: '.github/workflows/tandem.yml',
    });
    await client.rest.actions.createWorkflowDispatch({
      owner: 'acme',
      repo: 'suites',
      workflow_id: 'tandem.yml',
      ref: 'main',
      inputs: { 'pull-requests': 'acme/api#1' },
    });
    await client.rest.actions.listWorkflowRuns({ owner: 'acme', repo: 'suites', workflow_id: 'tandem.yml' });
    await client.rest.repos.get(repo);
    await client.rest.repos.getBranch({ ...repo, branch: 'main' });
    await client.rest.repos.getCollaboratorPermissionLevel({ ...repo, username: 'alice' });
    await client.rest.reactions.createForIssueComment({ ...repo, comment_id: comment.id, content: '+1' });
    await client.request('GET /search/issues', { q: 'acme/web#1 org:acme is:pr is:open', per_page: 50 });
    const wr = standIn.addWorkflowRun({
      owner: 'acme',
      repo: 'suites',
      workflowId: 'tandem.yml',
      displayTitle: 'Tandem #1',
    });
    await client.rest.actions.getWorkflowRun({ owner: 'acme', repo: 'suites', run_id: wr.id });
    const zip = Buffer.from('PK\x05\x06'.padEnd(22, '\0'), 'latin1');
    standIn.addArtifact({ owner: 'acme', repo: 'suites', runId: wr.id, name: 'tandem-report', zip });
    await client.rest.actions.listWorkflowRunArtifacts({ owner: 'acme', repo: 'suites', run_id: wr.id });

    const exchanges = standIn.requests.filter((r) => !r.path.startsWith('/_'));
    expect(exchanges.length).toBeGreaterThan(10);
    const problems = exchanges.flatMap((e) => checkExchange(e));
    expect(problems).toEqual([]);
    // The check can fail: a pull request without GitHub's required fields does not conform.
    const bare = { method: 'GET', path: '/repos/acme/api/pulls/1', status: 200, response: { number: 1 } };
    expect(checkExchange(bare)[0]?.errors).toMatch(/must have required property/);
  }, 120_000);
});
