/**
 * Issue 22's invariants with the real App server (stub executor, no engine): one `Tandem` check
 * per head however often the head is evaluated, and no check orphaned by a kill between GitHub
 * creating it and the App storing its id (the kill is injected at exactly that point by
 * `test/support/app-process.ts`, not by timing).
 *
 * Both stores: on PostgreSQL the killed process's lease outlives it, and the restarted App
 * (a new replica) adopts its evaluation at the first sweep after the lease expires.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { startAppServer } from '../../src/app/server.ts';
import { announceOpened, checksOnHeads } from '../helpers/app-pulls.ts';
import { type Scenario, useScenario } from '../helpers/app-scenario.ts';
import { StubExecutor } from '../support/stub-executor.ts';
import { createWebhookSender } from '../support/webhook-sender.ts';
import { API_OK, APP_BACKENDS, SCHEMA_OK, SECRET } from './app-harness.ts';

const APP_PROCESS = fileURLToPath(new URL('../support/app-process.ts', import.meta.url));

/** `/tandem run` from a writer of the repository, as a comment webhook. */
async function tandemRun(w: Scenario, repo: string) {
  w.standIn.setPermission('acme', repo, 'writer', 'write');
  await w.postComment(repo, '/tandem run', 'writer');
}

/** The App as a child process that exits right after its first check-run creation is answered. */
async function appDyingAfterCreate(w: Scenario): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', APP_PROCESS], {
    env: { ...w.env, PATH: process.env.PATH, TANDEM_TEST_EXIT_AFTER_CHECK_CREATE: '1' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const [line] = (await once(createInterface({ input: child.stdout! }), 'line')) as [string];
  return { child, url: (JSON.parse(line) as { url: string }).url };
}

describe.each(APP_BACKENDS)('App: checks under re-evaluations and kills (%s)', (backend) => {
  const scenario = useScenario({ backend });
  it('keeps one Tandem check per head when an unchanged head is evaluated again', async () => {
    const w = await scenario().with({ executor: new StubExecutor() }).start();
    const schema = await w.openPull('schema', SCHEMA_OK, 'Depends-On: acme/api#1');
    const api = await w.openPull('api', { 'index.js': API_OK }, 'Depends-On: acme/schema#1');
    await announceOpened(w, ['schema', 'api']);
    await w.settle();
    await tandemRun(w, 'api');
    // A link edited away and back: the same heads again.
    await w.sendPull('edited', 'schema', 1);
    await w.settle();
    for (const { checks } of checksOnHeads(w, { schema, api }))
      expect(checks.map((c) => [c.status, c.conclusion])).toEqual([['completed', 'success']]);
  });

  it('adopts the check a killed process created but never stored, and completes it', async () => {
    // On PostgreSQL the dead process's lease on the evaluation outlives it by TANDEM_LEASE_MS:
    // the restarted App (a new replica) adopts it at the first sweep after that, not at startup.
    const w = await scenario()
      .with({ executor: new StubExecutor(), env: { TANDEM_LEASE_MS: '1000' } })
      .start();
    await w.app.close();
    const schema = await w.openPull('schema', SCHEMA_OK, '');
    const dying = await appDyingAfterCreate(w);
    const sender = createWebhookSender({ url: `${dying.url}/api/github/webhooks`, secret: SECRET });
    const exited = once(dying.child, 'exit');
    // The delivery may not be answered: the process dies while answering it.
    await sender
      .pullRequest('opened', {
        pullRequest: w.standIn.pullRequest('acme', 'schema', 1) as unknown as Record<string, unknown>,
        repository: w.standIn.repository('acme', 'schema') as unknown as Record<string, unknown>,
        installationId: w.installationId,
      })
      .catch(() => undefined);
    const [code] = (await exited) as [number | null];
    expect(code).toBe(137);
    // GitHub holds the queued check; the dead process stored no id for it.
    expect(w.tandemChecks('schema', schema.head.sha).map((c) => c.status)).toEqual(['queued']);

    w.app = await startAppServer({ env: w.env, executor: new StubExecutor() });
    w.sender = createWebhookSender({ url: `${w.app.url}/api/github/webhooks`, secret: SECRET });
    await w.until(
      () => w.tandemChecks('schema', schema.head.sha).every((c) => c.status === 'completed'),
      'the adopted check to complete',
    );
    await w.settle();
    const checks = w.tandemChecks('schema', schema.head.sha);
    expect(checks.map((c) => [c.status, c.conclusion])).toEqual([['completed', 'success']]);
    expect((await w.app.service.store.checkRuns.get('acme/schema#1', schema.head.sha))?.checkRunId).toBe(
      checks[0]!.id,
    );
  });
});
