/**
 * Issue 22's 60 s goal, its cause: one reverse-link search per member per evaluation against
 * GitHub's 30 searches a minute. With the real App server (stub executor): a PR linked before the
 * App saw it is found by search once, later evaluations of the set ask the stored answer and the
 * webhook-fed index, and a PR the App saw opened is never searched.
 */
import { describe, expect, it } from 'vitest';
import { type Scenario, useScenario } from '../helpers/app-scenario.ts';
import { StubExecutor } from '../support/stub-executor.ts';
import { API_OK, SCHEMA_OK } from './app-harness.ts';

const scenario = useScenario();
const searches = (w: Scenario) => w.standIn.requests.filter((r) => r.path === '/search/issues').length;

async function tandemRun(w: Scenario, repo: string, body = '/tandem run --fresh') {
  w.standIn.setPermission('acme', repo, 'writer', 'write');
  await w.postComment(repo, body, 'writer');
}

describe('App: reverse-link search, once per PR', () => {
  it('finds a PR linked before the App saw it once, then relies on the stored answer and the index', async () => {
    const executor = new StubExecutor();
    const w = await scenario().with({ executor }).start();
    // Both PRs predate the App: no webhook ever told it about api#1 or its link.
    await w.openPull('schema', SCHEMA_OK, '');
    await w.openPull('api', { 'index.js': API_OK }, 'Depends-On: acme/schema#1');
    w.standIn.updatePullRequest('acme', 'schema', 1, { body: 'Edited.' });
    await w.sendPull('edited', 'schema', 1, { changes: { body: { from: '' } } });
    await w.settle();
    expect(executor.runs).toBe(1);
    expect(w.stickyComments('api', 1)).toHaveLength(1);
    // One search per member of the set, the answers stored.
    const first = searches(w);
    expect(first).toBe(2);

    await tandemRun(w, 'schema');
    expect(executor.runs).toBe(2);
    expect(searches(w)).toBe(first);

    // Opened while the App listens: the index has its links, and nothing can link to it unseen.
    await w.openPull('web', { 'index.js': 'module.exports = { page: 1 };\n' }, 'Depends-On: acme/api#1');
    await w.sendPull('opened', 'web', 1);
    await w.settle();
    expect(executor.runs).toBe(3);
    expect(w.stickyComments('web', 1)[0]!.body).toContain('acme/schema#1');
    expect(searches(w)).toBe(first);
  });
});
