/**
 * Linking end to end (real engine): 3-PR sets and cycles, links added by editing a body or by
 * command, links refused (another organization), invalid configuration, re-run from the check.
 */
import { ProbotOctokit } from 'probot';
import { describe, expect, it } from 'vitest';
import { COMMENT_MARKER, upsertStickyComment } from '../../src/github/sticky-comment.ts';
import { announceOpened, checksOnHeads } from '../helpers/app-pulls.ts';
import { type Scenario, useScenario } from '../helpers/app-scenario.ts';
import { API_OK, orgConfig, SCHEMA_OK } from './app-harness.ts';

const scenario = useScenario();

const repoOf = (w: Scenario, r: string) =>
  w.standIn.repository('acme', r) as unknown as Record<string, unknown>;

/** `user` comments `/tandem link acme/schema#1` on acme/api#1; resolves once the App is idle. */
function linkCommand(w: Scenario, user: string) {
  return w.postComment('api', '/tandem link acme/schema#1', user);
}

describe('App: linking', () => {
  it('evaluates a 3-PR cycle as one set, and fails it when one member regresses', async () => {
    const w = await scenario().start();
    const schema = await w.openPull('schema', SCHEMA_OK, 'Depends-On: acme/api#1');
    const api = await w.openPull(
      'api',
      { 'index.js': API_OK },
      'Depends-On: https://github.com/acme/web/pull/1',
    );
    const web = await w.openPull(
      'web',
      { 'index.js': 'module.exports = { page: 1, total: true };\n' },
      'Depends-On: acme/schema#1',
    );
    await announceOpened(w, ['schema', 'api', 'web']);
    await w.settle();
    for (const { repo, checks } of checksOnHeads(w, { schema, api, web })) {
      expect(checks.map((c) => c.conclusion)).toEqual(['success']);
      const body = w.stickyComments(repo, 1)[0]!.body!;
      for (const m of ['acme/schema#1', 'acme/api#1', 'acme/web#1']) expect(body).toContain(m);
    }

    // The web member regresses a test that passed on base: the whole set fails, on every member.
    const { commitOn } = await import('../helpers/git-fixtures.ts');
    const bad = await commitOn(w.repos.web!, 'feature', { 'index.js': 'module.exports = { page: 2 };\n' });
    w.standIn.updatePullRequest('acme', 'web', 1, { headSha: bad });
    await w.sendPull('synchronize', 'web', 1);
    await w.settle();
    expect(w.tandemChecks('web', bad).map((c) => c.conclusion)).toEqual(['failure']);
    // Issue 22: the unchanged schema head keeps its one check, completed again with the new verdict.
    expect(w.tandemChecks('schema', schema.head.sha).map((c) => c.conclusion)).toEqual(['failure']);
    expect(w.stickyComments('api', 1)[0]!.body).toMatch(/^❌ \*\*Not resolved\*\* — /m);
  });

  it('joins PRs when a body edit adds a link, and refuses a link to another organization', async () => {
    const w = await scenario().start();
    const schema = await w.openPull('schema', SCHEMA_OK, 'No links yet.');
    const api = await w.openPull('api', { 'index.js': API_OK }, 'Alone.');
    await announceOpened(w, ['schema', 'api']);
    await w.settle();
    expect(w.tandemChecks('api', api.head.sha).map((c) => c.conclusion)).toEqual(['failure']);

    w.standIn.updatePullRequest('acme', 'api', 1, {
      body: 'Depends-On: acme/schema#1\nDepends-On: evil/schema#1',
    });
    await w.sendPull('edited', 'api', 1, { changes: { body: { from: 'Alone.' } } });
    await w.settle();
    // Issue 22: one check per head, moved back and completed again (was a second check).
    expect(w.tandemChecks('api', api.head.sha).map((c) => c.conclusion)).toEqual(['success']);
    expect(w.tandemChecks('schema', schema.head.sha).at(-1)!.conclusion).toBe('success');
    const body = w.stickyComments('schema', 1)[0]!.body!;
    expect(body).toContain('evil/schema#1');
    expect(body).toContain('outside the acme organization');
    expect(w.standIn.requests.some((r) => r.path.startsWith('/repos/evil/'))).toBe(false);
  });

  it('links by command from a writer (acknowledged), ignores readers, and re-runs on request', async () => {
    const w = await scenario().start();
    const schema = await w.openPull('schema', SCHEMA_OK, '');
    const api = await w.openPull('api', { 'index.js': API_OK }, '');
    // A writer of both repositories: the link counts for both PRs (one writing only api would
    // make api need schema, without schema's set taking api in).
    w.standIn.setPermission('acme', 'api', 'writer', 'write');
    w.standIn.setPermission('acme', 'schema', 'writer', 'write');
    w.standIn.setPermission('acme', 'api', 'reader', 'read');
    const byReader = await linkCommand(w, 'reader');
    expect(w.standIn.reactions(Number(byReader.id)).map((r) => r.content)).toEqual(['confused']);
    expect(w.tandemChecks('api')).toHaveLength(0);

    const byWriter = await linkCommand(w, 'writer');
    expect(w.standIn.reactions(Number(byWriter.id)).map((r) => r.content)).toEqual(['+1']);
    expect(w.tandemChecks('api', api.head.sha).map((c) => c.conclusion)).toEqual(['success']);
    expect(w.tandemChecks('schema', schema.head.sha).map((c) => c.conclusion)).toEqual(['success']);

    const check = w.tandemChecks('schema', schema.head.sha)[0]!;
    await w.sender.checkRunRerequested({
      checkRun: check as unknown as Record<string, unknown>,
      repository: repoOf(w, 'schema'),
      installationId: w.installationId,
    });
    await w.settle();
    // Issue 22: a re-run of an unchanged head completes its one check again, never a second one.
    expect(w.tandemChecks('schema', schema.head.sha).map((c) => c.conclusion)).toEqual(['success']);
    expect(w.tandemChecks('api', api.head.sha)).toHaveLength(1);
    // Still one comment per PR, edited in place; publishing the same content again is skipped.
    const comments = w.stickyComments('api', 1);
    expect(comments).toHaveLength(1);
    const gh = new ProbotOctokit({
      auth: { token: w.standIn.mintToken(w.installationId) },
      baseUrl: w.standIn.apiUrl,
    });
    const content = comments[0]!.body!.replace(`${COMMENT_MARKER}\n`, '');
    const patches = () =>
      w.standIn.requests.filter((r) => r.method === 'PATCH' && r.path.includes('/issues/comments/'));
    const before = patches().length;
    expect(await upsertStickyComment(gh, { owner: 'acme', repo: 'api' }, 1, content)).toEqual({
      id: comments[0]!.id,
      action: 'unchanged',
    });
    expect(patches()).toHaveLength(before);
  });

  it('reports an invalid configuration as a failed check naming the field', async () => {
    const w = await scenario().start();
    w.standIn.setFile(
      'acme',
      '.github',
      '.github/tandem.yml',
      orgConfig().replace('matrix: full', 'matrix: sometimes'),
    );
    const schema = await w.openPull('schema', SCHEMA_OK, '');
    const res = await w.sendPull('opened', 'schema', 1);
    expect(res.status).toBe(200);
    await w.settle();
    const [check] = w.tandemChecks('schema', schema.head.sha);
    expect(check!.conclusion).toBe('failure');
    expect(check!.output.title).toContain('matrix');
    expect(check!.output.summary).toContain('`matrix`');
  });
});
