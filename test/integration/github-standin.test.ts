import { generateKeyPairSync } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhooks } from '@octokit/webhooks';
import { createNodeMiddleware, createProbot, Probot, ProbotOctokit } from 'probot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appKeys, TEST_APP_ID } from '../support/app-keys.ts';
import { type StandIn, startGitHubStandIn } from '../support/github-standin/index.ts';
import { createWebhookSender, signPayload } from '../support/webhook-sender.ts';

const SHA_BASE = 'a'.repeat(40);
const SHA_HEAD = 'b'.repeat(40);
const quiet = { debug() {}, info() {}, warn() {}, error() {} };

let standIn: StandIn;
let probot: Probot;

/** An installation-authenticated client, through Probot: App JWT → access token, under `/api/v3`. */
async function appClient() {
  return probot.auth(standIn.installationId('acme'));
}
/** A client with a static token (no installation), like a PAT or the Actions token. */
const tokenClient = () => new ProbotOctokit({ auth: { token: 'pat' }, baseUrl: standIn.url, log: quiet });

beforeAll(async () => {
  standIn = await startGitHubStandIn({ tokens: { pat: 'octocat' } });
  standIn.addRepo({ owner: 'acme', name: 'api', cloneUrl: 'http://127.0.0.1:1/acme/api.git' });
  standIn.addRepo({ owner: 'acme', name: 'web', private: true });
  standIn.addRepo({ owner: 'acme', name: '.github' });
  standIn.addRepo({ owner: 'other', name: 'lib' });
  standIn.addPullRequest({
    owner: 'acme',
    repo: 'api',
    number: 3,
    title: 'API change',
    body: 'Adds the endpoint',
    headRef: 'feat',
    headSha: SHA_HEAD,
    baseSha: SHA_BASE,
    user: 'alice',
  });
  standIn.addPullRequest({
    owner: 'acme',
    repo: 'web',
    title: 'Use the endpoint',
    body: 'Depends-On: acme/api#3',
    headRef: 'feat',
    headSha: 'c'.repeat(40),
    baseSha: SHA_BASE,
    user: 'alice',
  });
  standIn.addPullRequest({
    owner: 'acme',
    repo: 'web',
    title: 'Old',
    body: 'acme/api#3 too, but closed',
    headRef: 'old',
    headSha: 'd'.repeat(40),
    baseSha: SHA_BASE,
    state: 'closed',
  });
  standIn.setFile('acme', '.github', '.github/tandem.yml', 'matrix: leave-one-out\nmaxTargets: 4\n');
  standIn.setFile('acme', 'api', 'src/a.ts', 'export const a = 1;\n');
  standIn.setFile('acme', 'api', 'src/b.ts', 'export const b = 2;\n');
  standIn.setFile('acme', 'api', 'README.md', '# api\n');
  // Dispatches are checked against the workflow at the ref, as on GitHub.
  standIn.setFile(
    'acme',
    'api',
    '.github/workflows/tandem.yml',
    'on:\n  workflow_dispatch:\n    inputs:\n      pr: { required: true }\n',
  );
  standIn.setPermission('acme', 'api', 'alice', 'maintain');
  probot = new Probot({
    appId: TEST_APP_ID,
    privateKey: appKeys().privateKeyPem,
    baseUrl: standIn.apiUrl,
    logLevel: 'fatal',
  });
});

afterAll(() => standIn.close());

describe('GitHub stand-in: App authentication', () => {
  it('mints installation tokens for a valid App JWT and serves under /api/v3', async () => {
    const asApp = await probot.auth();
    const { data: app } = await asApp.rest.apps.getAuthenticated();
    expect(app?.slug).toBe('tandem');
    const { data: inst } = await asApp.rest.apps.getRepoInstallation({ owner: 'acme', repo: 'api' });
    expect(inst.id).toBe(standIn.installationId('acme'));
    const gh = await appClient();
    const { data: repo } = await gh.rest.repos.get({ owner: 'acme', repo: 'api' });
    expect(repo).toMatchObject({ full_name: 'acme/api', default_branch: 'main', private: false });
    expect(repo.clone_url).toBe('http://127.0.0.1:1/acme/api.git');
    expect(repo.owner.login).toBe('acme');
    const mint = standIn.requests.find((r) => r.path.endsWith('/access_tokens'));
    expect(mint?.status).toBe(201);
  });

  it('rejects a JWT signed by another key, a token on /app, and anonymous calls', async () => {
    const other = generateKeyPairSync('rsa', {
      modulusLength: 2048,
      privateKeyEncoding: { type: 'pkcs1', format: 'pem' },
      publicKeyEncoding: { type: 'spki', format: 'pem' },
    });
    const forged = new Probot({
      appId: TEST_APP_ID,
      privateKey: other.privateKey,
      baseUrl: standIn.url,
      logLevel: 'fatal',
    });
    await expect((await forged.auth()).rest.apps.getAuthenticated()).rejects.toMatchObject({ status: 401 });
    await expect(tokenClient().rest.apps.getAuthenticated()).rejects.toMatchObject({ status: 401 });
    const anon = await fetch(`${standIn.url}/repos/acme/api`);
    expect(anon.status).toBe(401);
    expect(await anon.json()).toMatchObject({ message: 'Requires authentication' });
  });

  it('works with Probot configured the GHES way (GHE_HOST, GHE_PROTOCOL=http)', async () => {
    const fromEnv = createProbot({
      env: {
        APP_ID: String(TEST_APP_ID),
        PRIVATE_KEY: appKeys().privateKeyPem,
        WEBHOOK_SECRET: 's',
        GHE_HOST: standIn.host,
        GHE_PROTOCOL: 'http',
        LOG_LEVEL: 'fatal',
      },
    });
    const gh = await fromEnv.auth(standIn.installationId('acme'));
    const { data } = await gh.rest.pulls.get({ owner: 'acme', repo: 'api', pull_number: 3 });
    expect(data.title).toBe('API change');
  });

  it('keeps installation tokens to their installation', async () => {
    const gh = await appClient();
    await expect(gh.rest.repos.get({ owner: 'other', repo: 'lib' })).rejects.toMatchObject({ status: 404 });
  });
});

describe('GitHub stand-in: pull requests, comments, reactions', () => {
  it('returns pull requests in GitHub shape and filters lists by head', async () => {
    const gh = await appClient();
    const { data: pr } = await gh.rest.pulls.get({ owner: 'acme', repo: 'api', pull_number: 3 });
    expect(pr).toMatchObject({ number: 3, title: 'API change', state: 'open', merged: false, draft: false });
    expect(pr.head).toMatchObject({ ref: 'feat', sha: SHA_HEAD, repo: { full_name: 'acme/api' } });
    expect(pr.base).toMatchObject({ ref: 'main', sha: SHA_BASE });
    expect(pr.user.login).toBe('alice');
    expect(pr.html_url).toBe('https://github.com/acme/api/pull/3');
    const { data: list } = await gh.rest.pulls.list({
      owner: 'acme',
      repo: 'web',
      state: 'all',
      head: 'acme:old',
    });
    expect(list.map((p) => p.title)).toEqual(['Old']);
    const updated = standIn.updatePullRequest('acme', 'api', 3, { headSha: 'e'.repeat(40) });
    expect(updated.head.sha).toBe('e'.repeat(40));
    standIn.updatePullRequest('acme', 'api', 3, { headSha: SHA_HEAD });
  });

  it('paginates issue comments with Link headers, and writes as the App bot', async () => {
    for (let i = 0; i < 150; i++) standIn.addComment('acme', 'web', 1, { body: `c${i}`, user: 'bob' });
    const gh = await appClient();
    const first = await gh.rest.issues.listComments({
      owner: 'acme',
      repo: 'web',
      issue_number: 1,
      per_page: 100,
    });
    expect(first.data).toHaveLength(100);
    expect(first.headers.link).toContain('rel="next"');
    expect(first.headers.link).toContain('/api/v3/repos/acme/web/issues/1/comments');
    const all = await gh.paginate(gh.rest.issues.listComments, {
      owner: 'acme',
      repo: 'web',
      issue_number: 1,
      per_page: 100,
    });
    expect(all.map((c) => c.body)).toEqual(Array.from({ length: 150 }, (_, i) => `c${i}`));

    const { data: mine } = await gh.rest.issues.createComment({
      owner: 'acme',
      repo: 'web',
      issue_number: 1,
      body: 'hi',
    });
    expect(mine.user).toMatchObject({ login: 'tandem[bot]', type: 'Bot' });
    expect(mine.performed_via_github_app?.slug).toBe('tandem');
    const { data: edited } = await gh.rest.issues.updateComment({
      owner: 'acme',
      repo: 'web',
      comment_id: mine.id,
      body: 'edited',
    });
    expect(edited.body).toBe('edited');
    expect(standIn.comments('acme', 'web', 1).at(-1)?.body).toBe('edited');
    // Someone else's comment is not the App's to edit.
    await expect(
      gh.rest.issues.updateComment({ owner: 'acme', repo: 'web', comment_id: all[0]!.id, body: 'x' }),
    ).rejects.toMatchObject({ status: 403 });
    await expect(
      gh.rest.issues.createComment({ owner: 'acme', repo: 'web', issue_number: 1, body: 'x'.repeat(65537) }),
    ).rejects.toMatchObject({ status: 422 });

    const r1 = await gh.rest.reactions.createForIssueComment({
      owner: 'acme',
      repo: 'web',
      comment_id: all[0]!.id,
      content: 'eyes',
    });
    const r2 = await gh.rest.reactions.createForIssueComment({
      owner: 'acme',
      repo: 'web',
      comment_id: all[0]!.id,
      content: 'eyes',
    });
    expect([r1.status, r2.status]).toEqual([201, 200]);
    expect(standIn.reactions(all[0]!.id)).toHaveLength(1);
  });

  it('answers collaborator permissions', async () => {
    const gh = await appClient();
    const alice = await gh.rest.repos.getCollaboratorPermissionLevel({
      owner: 'acme',
      repo: 'api',
      username: 'alice',
    });
    expect(alice.data).toMatchObject({
      permission: 'write',
      role_name: 'maintain',
      user: { login: 'alice' },
    });
    const eve = await gh.rest.repos.getCollaboratorPermissionLevel({
      owner: 'acme',
      repo: 'web',
      username: 'eve',
    });
    expect(eve.data.permission).toBe('none');
  });

  it('searches PRs whose body mentions a phrase, with qualifiers', async () => {
    const gh = await appClient();
    const { data } = await gh.rest.search.issuesAndPullRequests({
      q: '"acme/api#3" type:pr is:open org:acme',
    });
    expect(data.total_count).toBe(1);
    expect(data.items[0]).toMatchObject({
      number: 1,
      title: 'Use the endpoint',
      repository_url: `${standIn.url}/repos/acme/web`,
    });
    expect(data.items[0]?.pull_request?.html_url).toBe('https://github.com/acme/web/pull/1');
    const closed = await gh.rest.search.issuesAndPullRequests({
      q: '"acme/api#3" is:pr is:closed repo:acme/web',
    });
    expect(closed.data.items.map((i) => i.title)).toEqual(['Old']);
  });
});

describe('GitHub stand-in: check runs', () => {
  it('creates, updates and lists check runs for a ref', async () => {
    const gh = await appClient();
    const { data: created } = await gh.rest.checks.create({
      owner: 'acme',
      repo: 'api',
      name: 'Tandem',
      head_sha: SHA_HEAD,
      status: 'in_progress',
    });
    expect(created).toMatchObject({
      name: 'Tandem',
      status: 'in_progress',
      conclusion: null,
      head_sha: SHA_HEAD,
    });
    expect(created.pull_requests.map((p) => p.number)).toEqual([3]);
    const { data: done } = await gh.rest.checks.update({
      owner: 'acme',
      repo: 'api',
      check_run_id: created.id,
      conclusion: 'success',
      output: { title: 'Resolved', summary: 'all good' },
    });
    expect(done).toMatchObject({
      status: 'completed',
      conclusion: 'success',
      output: { title: 'Resolved', summary: 'all good' },
    });
    const { data: forRef } = await gh.rest.checks.listForRef({
      owner: 'acme',
      repo: 'api',
      ref: SHA_HEAD,
      check_name: 'Tandem',
    });
    expect(forRef.total_count).toBe(1);
    expect(forRef.check_runs[0]?.id).toBe(created.id);
    expect(standIn.checkRuns('acme', 'api', SHA_HEAD)[0]?.history).toHaveLength(2);
  });

  it('answers 422 on the inputs GitHub rejects, and 403 to non-App tokens', async () => {
    const gh = await appClient();
    const base = { owner: 'acme', repo: 'api', head_sha: SHA_HEAD };
    await expect(
      gh.rest.checks.create({ ...base, name: 'T', output: { title: 't', summary: 'x'.repeat(65536) } }),
    ).rejects.toMatchObject({ status: 422 });
    await expect(gh.rest.checks.create({ ...base, name: 'T', status: 'completed' })).rejects.toMatchObject({
      status: 422,
    });
    // A literal URL, so the typed endpoint (which requires `name`) does not stop the bad request.
    await expect(gh.request('POST /repos/acme/api/check-runs', { head_sha: SHA_HEAD })).rejects.toMatchObject(
      {
        status: 422,
        response: {
          data: { message: 'Validation Failed', errors: [{ field: 'name', code: 'missing_field' }] },
        },
      },
    );
    await expect(tokenClient().rest.checks.create({ ...base, name: 'T' })).rejects.toMatchObject({
      status: 403,
    });
  });
});

describe('GitHub stand-in: contents, config, actions', () => {
  it('serves files as base64, directories as arrays, 404 when absent, and Probot config', async () => {
    const gh = await appClient();
    const { data: file } = await gh.rest.repos.getContent({ owner: 'acme', repo: 'api', path: 'src/a.ts' });
    if (Array.isArray(file) || file.type !== 'file') throw new Error('expected a file');
    expect(Buffer.from(file.content, 'base64').toString('utf8')).toBe('export const a = 1;\n');
    const { data: dir } = await gh.rest.repos.getContent({ owner: 'acme', repo: 'api', path: 'src' });
    expect(Array.isArray(dir) && dir.map((e) => e.name)).toEqual(['a.ts', 'b.ts']);
    await expect(
      gh.rest.repos.getContent({ owner: 'acme', repo: 'api', path: 'nope.txt' }),
    ).rejects.toMatchObject({ status: 404 });
    const { config } = await gh.config.get({ owner: 'acme', repo: '.github', path: '.github/tandem.yml' });
    expect(config).toEqual({ matrix: 'leave-one-out', maxTargets: 4 });
  });

  it('records dispatches and serves artifact zips', async () => {
    const gh = await appClient();
    await gh.rest.actions.createWorkflowDispatch({
      owner: 'acme',
      repo: 'api',
      workflow_id: 'tandem.yml',
      ref: 'main',
      inputs: { pr: '3' },
    });
    await gh.rest.repos.createDispatchEvent({
      owner: 'acme',
      repo: 'api',
      event_type: 'tandem',
      client_payload: { a: 1 },
    });
    expect(standIn.dispatches).toEqual([
      {
        kind: 'workflow',
        owner: 'acme',
        repo: 'api',
        workflowId: 'tandem.yml',
        ref: 'main',
        inputs: { pr: '3' },
      },
      { kind: 'repository', owner: 'acme', repo: 'api', eventType: 'tandem', clientPayload: { a: 1 } },
    ]);
    const zip = Buffer.from('PK\x05\x06'.padEnd(22, '\0'), 'latin1');
    standIn.addArtifact({ owner: 'acme', repo: 'api', runId: 77, name: 'tandem-report', zip });
    const { data: list } = await gh.rest.actions.listWorkflowRunArtifacts({
      owner: 'acme',
      repo: 'api',
      run_id: 77,
    });
    expect(list.artifacts.map((a) => a.name)).toEqual(['tandem-report']);
    const dl = await gh.rest.actions.downloadArtifact({
      owner: 'acme',
      repo: 'api',
      artifact_id: list.artifacts[0]!.id,
      archive_format: 'zip',
    });
    expect(Buffer.from(dl.data as ArrayBuffer)).toEqual(zip);
  });
});

describe('GitHub stand-in: errors and rate limits', () => {
  it('answers unknown routes, bad JSON and missing tokens in GitHub shape with GitHub headers', async () => {
    const token = standIn.mintToken(standIn.installationId('acme'));
    const auth = { authorization: `token ${token}` };
    const unknown = await fetch(`${standIn.url}/repos/acme/api/nothing-here`, { headers: auth });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({
      message: 'Not Found',
      documentation_url: expect.any(String),
    });
    expect(unknown.headers.get('x-github-request-id')).toBeTruthy();
    expect(unknown.headers.get('x-ratelimit-remaining')).toMatch(/^\d+$/);
    const bad = await fetch(`${standIn.apiUrl}/repos/acme/api/check-runs`, {
      method: 'POST',
      headers: auth,
      body: '{nope',
    });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ message: 'Problems parsing JSON' });
  });

  it('lets Probot throttling ride out a primary and a secondary rate limit', async () => {
    const gh = await appClient();
    const before = standIn.requests.length;
    standIn.rateLimitNext(1, 'primary');
    const { data } = await gh.rest.pulls.get({ owner: 'acme', repo: 'api', pull_number: 3 });
    expect(data.number).toBe(3);
    standIn.rateLimitNext(1, 'secondary');
    await gh.rest.pulls.get({ owner: 'acme', repo: 'api', pull_number: 3 });
    const statuses = standIn.requests.slice(before).map((r) => r.status);
    expect(statuses).toEqual([403, 200, 429, 200]);
  });
});

describe('webhook sender', () => {
  const secret = 'webhook-secret';

  it('signs deliveries that @octokit/webhooks verifies', async () => {
    const webhooks = new Webhooks({ secret });
    const body = JSON.stringify({ hello: 'world' });
    expect(await webhooks.verify(body, signPayload(secret, body))).toBe(true);
    expect(await webhooks.verify(body, signPayload('wrong', body))).toBe(false);
  });

  it('delivers pull_request and issue_comment events that a Probot app receives', async () => {
    const seen: { name: string; action?: string; id: string; payload: Record<string, unknown> }[] = [];
    const app = new Probot({
      appId: TEST_APP_ID,
      privateKey: appKeys().privateKeyPem,
      secret,
      baseUrl: standIn.url,
      logLevel: 'fatal',
    });
    const middleware = await createNodeMiddleware(
      (p) => {
        p.onAny(async (ctx) => {
          seen.push({
            name: ctx.name,
            id: ctx.id,
            payload: ctx.payload as unknown as Record<string, unknown>,
          });
        });
      },
      { probot: app },
    );
    const server: Server = createServer((req, res) => {
      Promise.resolve(middleware(req, res)).then((handled) => {
        if (!handled) res.writeHead(404).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/github/webhooks`;
      const sender = createWebhookSender({ url, secret });
      const installationId = standIn.installationId('acme');
      const pullRequest = standIn.pullRequest('acme', 'web', 1);
      const repository = standIn.repository('acme', 'web');
      const opened = await sender.pullRequest('opened', { pullRequest, repository, installationId });
      expect(opened.status).toBe(200);
      const again = await sender.pullRequest(
        'synchronize',
        { pullRequest, repository, installationId, before: SHA_BASE },
        { deliveryId: opened.deliveryId },
      );
      expect(again.deliveryId).toBe(opened.deliveryId);
      const comment = standIn.addComment('acme', 'web', 1, { body: '/tandem recheck', user: 'alice' });
      expect(
        (await sender.issueCommentCreated({ pullRequest, repository, comment, installationId })).status,
      ).toBe(200);
      const run = standIn.checkRuns('acme', 'api', SHA_HEAD)[0]!;
      const apiRepo = standIn.repository('acme', 'api');
      expect(
        (await sender.checkRunRerequested({ checkRun: run, repository: apiRepo, installationId })).status,
      ).toBe(200);
      expect((await sender.installation('created', { installationId, account: 'acme' })).status).toBe(200);
      expect(
        (
          await sender.workflowRunCompleted({
            repository: apiRepo,
            installationId,
            runId: 77,
            headSha: SHA_HEAD,
          })
        ).status,
      ).toBe(200);
      const forged = await sender.pullRequest(
        'opened',
        { pullRequest, repository, installationId },
        { signature: 'sha256=00' },
      );
      expect(forged.status).toBeGreaterThanOrEqual(400);

      expect(seen.map((e) => e.name)).toEqual([
        'pull_request',
        'pull_request',
        'issue_comment',
        'check_run',
        'installation',
        'workflow_run',
      ]);
      const [first, second, third] = seen;
      expect(first?.payload).toMatchObject({
        action: 'opened',
        number: 1,
        installation: { id: installationId },
        repository: { full_name: 'acme/web' },
        pull_request: { body: 'Depends-On: acme/api#3', head: { sha: 'c'.repeat(40) } },
      });
      expect(second?.id).toBe(first?.id);
      expect(second?.payload).toMatchObject({
        action: 'synchronize',
        before: SHA_BASE,
        after: 'c'.repeat(40),
      });
      expect(third?.payload).toMatchObject({
        issue: { number: 1, pull_request: { html_url: 'https://github.com/acme/web/pull/1' } },
        comment: { body: '/tandem recheck', user: { login: 'alice' } },
      });
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
