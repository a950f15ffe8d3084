/**
 * Every text the App writes on a public PR keeps the privacy boundary (issue 25, item 4), not only
 * the verdict comment. Against the App over HTTP with signed webhooks and the GitHub stand-in
 * (every request body the App sent to the public repository is read back): the check and comment
 * given to a public PR the caps refused from a private set, and the `/tandem merge` comment of a
 * public set whose private neighbour an earlier merge carried, never name the private repository,
 * its PR, its head or its merge commit.
 */
import { describe, expect, it } from 'vitest';
import type { Executor } from '../../src/app/executors/executor.ts';
import type { Report } from '../../src/core/report.schema.ts';
import { orgConfig, SCHEMA_OK } from '../e2e/app-harness.ts';
import { type Scenario, useScenario } from '../helpers/app-scenario.ts';
import { StubExecutor } from '../support/stub-executor.ts';

const scenario = useScenario();

/** Everything the App sent to `acme/<repo>`: comments, check runs, their edits. */
function writtenTo(w: Scenario, repo: string): string {
  return w.standIn.requests
    .filter((r) => r.method !== 'GET' && r.path.startsWith(`/repos/acme/${repo}/`))
    .map((r) => JSON.stringify(r.body ?? ''))
    .join('\n');
}

/** The private PR's identifiers: none may appear on a public page. */
function expectNothingOf(text: string, secrets: string[]): void {
  for (const s of secrets) expect(text, `"${s}" on the public PR`).not.toContain(s);
}

/**
 * The public PR's webhook first, then the private one's: each is its own set (the private one
 * seeds its own evaluation, which may need the public PR).
 */
async function openedInOrder(w: Scenario): Promise<void> {
  await w.sendPull('opened', 'api', 1);
  await w.until(
    () => w.standIn.requests.some((r) => r.method === 'POST' && r.path === '/repos/acme/api/check-runs'),
    'the public PR recorded',
  );
  await w.sendPull('opened', 'schema', 1);
  await w.until(
    () => w.standIn.requests.some((r) => r.method === 'POST' && r.path === '/repos/acme/schema/check-runs'),
    'the private PR recorded',
  );
}

/** Evaluations that never end (until the App stops): the set's own texts are all this test reads. */
class NeverEnding implements Executor {
  run(_spec: unknown, signal: AbortSignal): Promise<Report> {
    return new Promise((_ok, fail) => signal.addEventListener('abort', () => fail(new Error('stopped'))));
  }
}

describe('attack: a public PR the caps refused from a private set', () => {
  it('its check and comment name nothing of the private set', async () => {
    const w = await scenario()
      .with({
        executor: new NeverEnding(),
        privateRepos: ['schema'],
        config: orgConfig('limits:\n  members: 1'),
      })
      .start();
    // The private PR links the public one, which links back: the public one would join but for the cap.
    const secret = await w.openPull('schema', SCHEMA_OK, 'Depends-On: acme/api#1');
    await w.openPull('api', { 'index.js': 'module.exports = {};\n' }, 'Depends-On: acme/schema#1');
    await openedInOrder(w);
    w.app.service.flush();
    await w.until(
      () => w.standIn.comments('acme', 'api', 1).some((c) => c.body?.includes('Not evaluated')),
      'the public PR told it was refused',
    );
    const written = writtenTo(w, 'api');
    expect(written).toContain('the linked change already has 1 members (the limit)');
    expectNothingOf(written, ['acme/schema', 'schema#1', secret.head.sha.slice(0, 7)]);
  });
});

describe('attack: a private merged neighbour carried into a public merge comment', () => {
  it('the public set merges without naming it', async () => {
    const w = await scenario()
      .with({ executor: new StubExecutor(), privateRepos: ['schema'] })
      .start();
    w.mergeable(['schema', 'api']);
    for (const name of ['schema', 'api']) w.standIn.setPermission('acme', name, 'alice', 'write');
    const secret = await w.openPull('schema', SCHEMA_OK, 'Depends-On: acme/api#1');
    await w.openPull('api', { 'index.js': 'module.exports = { ok: 1 };\n' }, 'Standalone.');
    await openedInOrder(w);
    await w.settle();

    // The private set merges its own member; GitHub then says it closed.
    await w.postComment('schema', '/tandem merge', 'alice');
    const merged = w.standIn.pullRequest('acme', 'schema', 1);
    expect(merged.merged).toBe(true);
    await w.sendPull('closed', 'schema', 1);
    await w.settle();

    await w.postComment('api', '/tandem merge', 'alice');
    expect(w.standIn.pullRequest('acme', 'api', 1).merged).toBe(true);
    const written = writtenTo(w, 'api');
    expect(written).toContain('tandem:merge');
    expectNothingOf(written, [
      'acme/schema',
      'schema#1',
      secret.head.sha.slice(0, 7),
      String(merged.merge_commit_sha).slice(0, 7),
    ]);
  });
});

describe('attack: a private change handed to a public evaluator repository', () => {
  it('is not dispatched: the workflow run, its inputs and logs would be public', async () => {
    const w = await scenario()
      .with({
        privateRepos: ['schema'],
        config: orgConfig('executor: actions\nactions: { workflow: tandem.yml }\n'),
      })
      .start();
    // The evaluator repository is public: anyone reads its runs' names, inputs and logs.
    w.standIn.state.repo('acme', 'tandem-suites')!.private = false;
    const secret = await w.openPull('schema', SCHEMA_OK, 'Internal field.');
    await w.sendPull('opened', 'schema', 1);
    await w.settle();
    expect(w.standIn.dispatches).toEqual([]);
    const checks = w.standIn.checkRuns('acme', 'schema', secret.head.sha).filter((c) => c.name === 'Tandem');
    expect(checks.map((c) => c.conclusion)).toEqual(['failure']);
    expect(JSON.stringify(checks[0]!.output)).toContain(
      'the evaluator repository acme/tandem-suites is more public',
    );
    expectNothingOf(writtenTo(w, 'tandem-suites'), ['acme/schema', secret.head.sha.slice(0, 7)]);
  });
});
