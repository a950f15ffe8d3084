/**
 * Linking end to end (real engine): 3-PR sets and cycles, links added by editing a body or by
 * command, links refused (another organization), invalid configuration, re-run from the check.
 */
import { ProbotOctokit } from 'probot';
import { describe, expect, it } from 'vitest';
import { COMMENT_MARKER, upsertStickyComment } from '../../src/github/sticky-comment.ts';
import {
  API_OK,
  openPull,
  orgConfig,
  postComment,
  SCHEMA_OK,
  sendPull,
  settle,
  stickyComments,
  tandemChecks,
  useWorld,
  type World,
} from './app-harness.ts';

const startWorld = useWorld();

const repoOf = (w: World, r: string) => w.standIn.repository('acme', r) as unknown as Record<string, unknown>;

/** `user` comments `/tandem link acme/schema#1` on acme/api#1; resolves once the App is idle. */
function linkCommand(w: World, user: string) {
  return postComment(w, 'api', '/tandem link acme/schema#1', user);
}

describe('App: linking', () => {
  it('evaluates a 3-PR cycle as one set, and fails it when one member regresses', async () => {
    const w = await startWorld();
    const schema = await openPull(w, 'schema', SCHEMA_OK, 'Depends-On: acme/api#1');
    const api = await openPull(
      w,
      'api',
      { 'index.js': API_OK },
      'Depends-On: https://github.com/acme/web/pull/1',
    );
    const web = await openPull(
      w,
      'web',
      { 'index.js': 'module.exports = { page: 1, total: true };\n' },
      'Depends-On: acme/schema#1',
    );
    for (const r of ['schema', 'api', 'web']) await sendPull(w, 'opened', r, 1);
    await settle(w);
    for (const [r, pr] of [
      ['schema', schema],
      ['api', api],
      ['web', web],
    ] as const) {
      const checks = tandemChecks(w, r, pr.head.sha);
      expect(checks.map((c) => c.conclusion)).toEqual(['success']);
      const body = stickyComments(w, r, 1)[0]!.body!;
      for (const m of ['acme/schema#1', 'acme/api#1', 'acme/web#1']) expect(body).toContain(m);
    }

    // The web member regresses a test that passed on base: the whole set fails, on every member.
    const { commitOn } = await import('../helpers/git-fixtures.ts');
    const bad = await commitOn(w.repos.web!, 'feature', { 'index.js': 'module.exports = { page: 2 };\n' });
    w.standIn.updatePullRequest('acme', 'web', 1, { headSha: bad });
    await sendPull(w, 'synchronize', 'web', 1);
    await settle(w);
    expect(tandemChecks(w, 'web', bad).map((c) => c.conclusion)).toEqual(['failure']);
    // Issue 22: the unchanged schema head keeps its one check, completed again with the new verdict.
    expect(tandemChecks(w, 'schema', schema.head.sha).map((c) => c.conclusion)).toEqual(['failure']);
    expect(stickyComments(w, 'api', 1)[0]!.body).toMatch(/^❌ \*\*Not resolved\*\* — /m);
  });

  it('joins PRs when a body edit adds a link, and refuses a link to another organization', async () => {
    const w = await startWorld();
    const schema = await openPull(w, 'schema', SCHEMA_OK, 'No links yet.');
    const api = await openPull(w, 'api', { 'index.js': API_OK }, 'Alone.');
    await sendPull(w, 'opened', 'schema', 1);
    await sendPull(w, 'opened', 'api', 1);
    await settle(w);
    expect(tandemChecks(w, 'api', api.head.sha).map((c) => c.conclusion)).toEqual(['failure']);

    w.standIn.updatePullRequest('acme', 'api', 1, {
      body: 'Depends-On: acme/schema#1\nDepends-On: evil/schema#1',
    });
    await sendPull(w, 'edited', 'api', 1, { changes: { body: { from: 'Alone.' } } });
    await settle(w);
    // Issue 22: one check per head, moved back and completed again (was a second check).
    expect(tandemChecks(w, 'api', api.head.sha).map((c) => c.conclusion)).toEqual(['success']);
    expect(tandemChecks(w, 'schema', schema.head.sha).at(-1)!.conclusion).toBe('success');
    const body = stickyComments(w, 'schema', 1)[0]!.body!;
    expect(body).toContain('evil/schema#1');
    expect(body).toContain('outside the acme organization');
    expect(w.standIn.requests.some((r) => r.path.startsWith('/repos/evil/'))).toBe(false);
  });

  it('links by command from a writer (acknowledged), ignores readers, and re-runs on request', async () => {
    const w = await startWorld();
    const schema = await openPull(w, 'schema', SCHEMA_OK, '');
    const api = await openPull(w, 'api', { 'index.js': API_OK }, '');
    // A writer of both repositories: the link counts for both PRs (one writing only api would
    // make api need schema, without schema's set taking api in).
    w.standIn.setPermission('acme', 'api', 'writer', 'write');
    w.standIn.setPermission('acme', 'schema', 'writer', 'write');
    w.standIn.setPermission('acme', 'api', 'reader', 'read');
    const byReader = await linkCommand(w, 'reader');
    expect(w.standIn.reactions(Number(byReader.id)).map((r) => r.content)).toEqual(['confused']);
    expect(tandemChecks(w, 'api')).toHaveLength(0);

    const byWriter = await linkCommand(w, 'writer');
    expect(w.standIn.reactions(Number(byWriter.id)).map((r) => r.content)).toEqual(['+1']);
    expect(tandemChecks(w, 'api', api.head.sha).map((c) => c.conclusion)).toEqual(['success']);
    expect(tandemChecks(w, 'schema', schema.head.sha).map((c) => c.conclusion)).toEqual(['success']);

    const check = tandemChecks(w, 'schema', schema.head.sha)[0]!;
    await w.sender.checkRunRerequested({
      checkRun: check as unknown as Record<string, unknown>,
      repository: repoOf(w, 'schema'),
      installationId: w.installationId,
    });
    await settle(w);
    // Issue 22: a re-run of an unchanged head completes its one check again, never a second one.
    expect(tandemChecks(w, 'schema', schema.head.sha).map((c) => c.conclusion)).toEqual(['success']);
    expect(tandemChecks(w, 'api', api.head.sha)).toHaveLength(1);
    // Still one comment per PR, edited in place; publishing the same content again is skipped.
    const comments = stickyComments(w, 'api', 1);
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
    const w = await startWorld();
    w.standIn.setFile(
      'acme',
      '.github',
      '.github/tandem.yml',
      orgConfig().replace('matrix: full', 'matrix: sometimes'),
    );
    const schema = await openPull(w, 'schema', SCHEMA_OK, '');
    const res = await sendPull(w, 'opened', 'schema', 1);
    expect(res.status).toBe(200);
    await settle(w);
    const [check] = tandemChecks(w, 'schema', schema.head.sha);
    expect(check!.conclusion).toBe('failure');
    expect(check!.output.title).toContain('matrix');
    expect(check!.output.summary).toContain('`matrix`');
  });
});
