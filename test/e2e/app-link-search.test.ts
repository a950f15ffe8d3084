/**
 * Issue 22's 60 s goal, its cause: one reverse-link search per member per evaluation against
 * GitHub's 30 searches a minute. With the real App server (stub executor): a PR linked before the
 * App saw it is found by search once, later evaluations of the set ask the stored answer and the
 * webhook-fed index, and a PR the App saw opened is never searched.
 */
import { describe, expect, it } from 'vitest';
import { StubExecutor } from '../support/stub-executor.ts';
import {
  API_OK,
  openPull,
  postComment,
  SCHEMA_OK,
  sendPull,
  settle,
  stickyComments,
  useWorld,
  type World,
} from './app-harness.ts';

const startWorld = useWorld();
const searches = (w: World) => w.standIn.requests.filter((r) => r.path === '/search/issues').length;

async function tandemRun(w: World, repo: string, body = '/tandem run --fresh') {
  w.standIn.setPermission('acme', repo, 'writer', 'write');
  await postComment(w, repo, body, 'writer');
}

describe('App: reverse-link search, once per PR', () => {
  it('finds a PR linked before the App saw it once, then relies on the stored answer and the index', async () => {
    const executor = new StubExecutor();
    const w = await startWorld({ executor });
    // Both PRs predate the App: no webhook ever told it about api#1 or its link.
    await openPull(w, 'schema', SCHEMA_OK, '');
    await openPull(w, 'api', { 'index.js': API_OK }, 'Depends-On: acme/schema#1');
    w.standIn.updatePullRequest('acme', 'schema', 1, { body: 'Edited.' });
    await sendPull(w, 'edited', 'schema', 1, { changes: { body: { from: '' } } });
    await settle(w);
    expect(executor.runs).toBe(1);
    expect(stickyComments(w, 'api', 1)).toHaveLength(1);
    // One search per member of the set, the answers stored.
    const first = searches(w);
    expect(first).toBe(2);

    await tandemRun(w, 'schema');
    expect(executor.runs).toBe(2);
    expect(searches(w)).toBe(first);

    // Opened while the App listens: the index has its links, and nothing can link to it unseen.
    await openPull(w, 'web', { 'index.js': 'module.exports = { page: 1 };\n' }, 'Depends-On: acme/api#1');
    await sendPull(w, 'opened', 'web', 1);
    await settle(w);
    expect(executor.runs).toBe(3);
    expect(stickyComments(w, 'web', 1)[0]!.body).toContain('acme/schema#1');
    expect(searches(w)).toBe(first);
  });
});
