/**
 * A merge group whose gating replica dies (issue 27): replica A, a process of its own, stores the
 * group, creates its queued check and starts evaluating it, then is killed (SIGKILL) while the
 * evaluation holds. Replica B (the world's App, on the same PostgreSQL database, sent no
 * `merge_group` webhook and never restarted) adopts the group at its sweep once A's lease on it
 * (`merge-group:<key>`) expired, and completes the same check. Real processes over HTTP.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { StubExecutor } from '../support/stub-executor.ts';
import { createWebhookSender } from '../support/webhook-sender.ts';
import {
  openPull,
  SCHEMA_OK,
  SECRET,
  sendPull,
  settle,
  tandemChecks,
  until,
  useWorld,
} from './app-harness.ts';

const startWorld = useWorld({ backend: 'postgres' });
const APP_PROCESS = fileURLToPath(new URL('../support/app-process.ts', import.meta.url));

it('completes the check of a merge group whose gating replica was killed mid-gate, with no restart', async () => {
  const executor = new StubExecutor();
  // Short enough to take over soon, long enough that a busy machine's event-loop lag does not
  // make the live replica lose its own leases.
  const w = await startWorld({ executor, env: { TANDEM_LEASE_MS: '3000' } });
  // The queued PR, known to the shared index (B recorded and evaluated it).
  const pr = await openPull(w, 'schema', SCHEMA_OK, 'Adds total.');
  expect((await sendPull(w, 'opened', 'schema', pr.number)).status).toBe(200);
  await settle(w);
  expect(executor.runs).toBe(1);
  // Replica A holds every evaluation it starts (and says so): it dies mid-gate.
  const child = spawn(process.execPath, ['--import', 'tsx', APP_PROCESS], {
    env: {
      ...w.env,
      PATH: process.env.PATH,
      TANDEM_DATA_DIR: join(w.root, 'data-a'),
      TANDEM_TEST_HOLD_EVALUATIONS: '1',
    },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const exited = once(child, 'exit');
  try {
    const lines = createInterface({ input: child.stdout! });
    const [first] = (await once(lines, 'line')) as [string];
    const toA = createWebhookSender({
      url: `${(JSON.parse(first) as { url: string }).url}/api/github/webhooks`,
      secret: SECRET,
    });
    const started = once(lines, 'line');
    const headSha = 'e'.repeat(40);
    const answer = await toA.mergeGroup('checks_requested', {
      repository: w.standIn.repository('acme', 'schema') as unknown as Record<string, unknown>,
      installationId: w.installationId,
      headSha,
      headRef: `refs/heads/gh-readonly-queue/main/pr-${pr.number}-${pr.head.sha}`,
      baseSha: w.repos.schema!.sha,
    });
    expect(answer.status).toBe(200);
    expect(JSON.parse(((await started) as [string])[0])).toEqual({ event: 'evaluation-started' });
    // A's queued check exists and is in progress: the gate is mid-way.
    expect(tandemChecks(w, 'schema', headSha).map((c) => c.status)).toEqual(['in_progress']);
    child.kill('SIGKILL');
    await exited;
    await until(
      w,
      () => tandemChecks(w, 'schema', headSha).some((c) => c.status === 'completed'),
      "B adopts A's group and completes its check",
    );
    await w.app.runtime.mergeGroups.idle();
    // The same check run, completed by B (its evaluation ran on B's executor).
    expect(tandemChecks(w, 'schema', headSha).map((c) => [c.status, c.conclusion])).toEqual([
      ['completed', 'success'],
    ]);
    expect(executor.runs).toBe(2);
    expect((await w.app.service.store.mergeGroups.all()).open).toEqual([]);
  } finally {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
}, 60_000);
