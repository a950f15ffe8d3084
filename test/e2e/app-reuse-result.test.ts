/**
 * Issue 22 item 4 with the real App server (stub executor, no engine): a re-run of heads that
 * already have a published result republishes it and says so, `/tandem run --fresh` runs the
 * executor again, and so does a changed suite or org config.
 */
import { describe, expect, it } from 'vitest';
import { StubExecutor } from '../support/stub-executor.ts';
import {
  API_OK,
  openPull,
  orgConfig,
  postComment,
  SCHEMA_OK,
  SUITE,
  sendPull,
  settle,
  stickyComments,
  tandemChecks,
  useWorld,
  type World,
} from './app-harness.ts';

const startWorld = useWorld();
const REUSED = 'Reused the result for these heads';

/** A comment from a writer of the repository, as a comment webhook; waits until all is done. */
async function command(w: World, repo: string, body: string) {
  w.standIn.setPermission('acme', repo, 'writer', 'write');
  await postComment(w, repo, body, 'writer');
}

const verdicts = (w: World) => ['schema', 'api'].map((r) => stickyComments(w, r, 1)[0]!.body!);

describe('App: reuse of a published result', () => {
  it('republishes the result for unchanged heads unless asked fresh or the suite or config changed', async () => {
    const executor = new StubExecutor();
    const w = await startWorld({ executor });
    const schema = await openPull(w, 'schema', SCHEMA_OK, 'Depends-On: acme/api#1');
    const api = await openPull(w, 'api', { 'index.js': API_OK }, 'Depends-On: acme/schema#1');
    await sendPull(w, 'opened', 'schema', 1);
    await sendPull(w, 'opened', 'api', 1);
    await settle(w);
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
    await sendPull(w, 'edited', 'schema', 1);
    await settle(w);
    expect(executor.runs).toBe(1);
    for (const [repo, sha] of [
      ['schema', schema.head.sha],
      ['api', api.head.sha],
    ] as const)
      expect(tandemChecks(w, repo, sha).map((c) => [c.status, c.conclusion])).toEqual([
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
