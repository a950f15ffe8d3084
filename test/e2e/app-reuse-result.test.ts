/**
 * Issue 22 item 4 with the real App server (stub executor, no engine): a re-run of heads that
 * already have a published result republishes it and says so, `/tandem run --fresh` runs the
 * executor again, and so does a changed suite or org config.
 *
 * Both stores: the published result read back, and the org config reloaded.
 */
import { describe, expect, it } from 'vitest';
import { type Scenario, useScenario } from '../helpers/app-scenario.ts';
import { StubExecutor } from '../support/stub-executor.ts';
import { API_OK, APP_BACKENDS, orgConfig, SCHEMA_OK, SUITE } from './app-harness.ts';

const REUSED = 'Reused the result for these heads';

/** A comment from a writer of the repository, as a comment webhook; waits until all is done. */
async function command(w: Scenario, repo: string, body: string) {
  w.standIn.setPermission('acme', repo, 'writer', 'write');
  await w.postComment(repo, body, 'writer');
}

const verdicts = (w: Scenario) => ['schema', 'api'].map((r) => w.stickyComments(r, 1)[0]!.body!);

describe.each(APP_BACKENDS)('App: reuse of a published result (%s)', (backend) => {
  const scenario = useScenario({ backend });
  it('republishes the result for unchanged heads unless asked fresh or the suite or config changed', async () => {
    const executor = new StubExecutor();
    const w = await scenario().with({ executor }).start();
    const schema = await w.openPull('schema', SCHEMA_OK, 'Depends-On: acme/api#1');
    const api = await w.openPull('api', { 'index.js': API_OK }, 'Depends-On: acme/schema#1');
    await w.sendPull('opened', 'schema', 1);
    await w.sendPull('opened', 'api', 1);
    await w.settle();
    expect(executor.runs).toBe(1);
    for (const body of verdicts(w)) expect(body).not.toContain(REUSED);

    // Same members, same heads: the published verdict again, without the executor.
    await command(w, 'api', '/tandem run');
    expect(executor.runs).toBe(1);
    for (const body of verdicts(w)) {
      expect(body).toContain(REUSED);
      expect(body).toContain('`/tandem run --fresh` runs it again');
    }
    // A link removed and added back is the same set on the same heads.
    await w.sendPull('edited', 'schema', 1);
    await w.settle();
    expect(executor.runs).toBe(1);
    for (const [repo, sha] of [
      ['schema', schema.head.sha],
      ['api', api.head.sha],
    ] as const)
      expect(w.tandemChecks(repo, sha).map((c) => [c.status, c.conclusion])).toEqual([
        ['completed', 'success'],
      ]);

    await command(w, 'schema', '/tandem run --fresh');
    expect(executor.runs).toBe(2);
    for (const body of verdicts(w)) expect(body).not.toContain(REUSED);

    // The suite changed: its result for these heads no longer stands.
    w.standIn.setFile(
      'acme',
      'tandem-suites',
      'suites/checkout/suite.yml',
      SUITE.replace('timeout: 60', 'timeout: 90'),
    );
    await command(w, 'api', '/tandem run');
    expect(executor.runs).toBe(3);
    for (const body of verdicts(w)) expect(body).not.toContain(REUSED);

    // And the org config.
    w.standIn.setFile(
      'acme',
      '.github',
      '.github/tandem.yml',
      orgConfig().replace('reveal: names', 'reveal: messages'),
    );
    await command(w, 'api', '/tandem run');
    expect(executor.runs).toBe(4);

    // Unchanged again since the last run: reused once more.
    await command(w, 'api', '/tandem run');
    expect(executor.runs).toBe(4);
    for (const body of verdicts(w)) expect(body).toContain(REUSED);
  });
});
