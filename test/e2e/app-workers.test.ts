/**
 * The App end to end on `executor: workers`: webhooks from the GitHub stand-in, `tandem.yml`
 * saying `executor: workers`, the App given `DATABASE_URL` (a PostgreSQL database of this test's
 * own), and one worker in this process (the `tandem worker` loop and engine path, with the
 * development process sandbox). The linked change's four configurations run on the worker, and
 * the App publishes the verdict on both members as it does for a local evaluation.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engineRunner } from '../../src/engine/workers/run-job.ts';
import { runWorker } from '../../src/engine/workers/worker.ts';
import { useScenario } from '../helpers/app-scenario.ts';
import { makeTempDir, removeTempDir } from '../helpers/git-fixtures.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/worker-pool-db.ts';
import { API_OK, SCHEMA_OK } from './app-harness.ts';

const scenario = useScenario();
let db: TestDatabase;
let root: string;
const controller = new AbortController();
let worker: Promise<void> | undefined;
const lines: string[] = [];

beforeAll(async () => {
  db = await createTestDatabase();
  root = await makeTempDir('tandem-app-workers-');
  const cacheDir = path.join(root, 'cache');
  worker = runWorker({
    databaseUrl: db.url,
    hostId: 'w1',
    concurrency: 2,
    runner: engineRunner({ host: { cacheDir }, sandbox: 'process' }),
    scratchDir: path.join(cacheDir, 'worker'),
    signal: controller.signal,
    log: (line) => lines.push(line),
  });
});

afterAll(async () => {
  controller.abort();
  await worker;
  await db?.drop();
  if (root) await removeTempDir(root);
});

describe('App: executor: workers', () => {
  it('evaluates a linked change on the worker pool and publishes it on both members', async () => {
    const s = await scenario()
      .config({ extra: 'executor: workers\n' })
      .with({ env: { DATABASE_URL: db.url } })
      .pull('schema', SCHEMA_OK, 'Adds total.')
      .pull('api', { 'index.js': API_OK }, 'Uses total.\n\nDepends-On: acme/schema#1')
      .start();
    for (const repo of ['schema', 'api']) {
      const checks = s.tandemChecks(repo);
      expect(checks).toHaveLength(1);
      expect([checks[0]!.status, checks[0]!.conclusion]).toEqual(['completed', 'success']);
      expect(s.stickyComments(repo, 1)[0]!.body).toMatch(/^✅ \*\*Resolved\*\* — /m);
    }
    // The matrix of two targets ran on the worker, not on the App host.
    expect(lines.filter((l) => l.includes(' reported in '))).toHaveLength(4);
    // The installation token in the clone URLs never reaches the worker's log.
    expect(lines.join('\n')).not.toMatch(/x-access-token|ghs_/);
  }, 180_000);
});
