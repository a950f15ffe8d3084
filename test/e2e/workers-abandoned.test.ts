/**
 * `executor: workers`, on real PostgreSQL: the evaluation of an App that was killed mid-way (it
 * stored its bundle and sent its jobs, then stopped renewing the bundle) is not run by the
 * workers — nobody waits for its answers; another replica evaluates the set again — and its
 * bundle (clone URLs, hidden files) goes at the next prune, not after the one-day one.
 */
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleOf } from '../../src/app/executors/worker-bundle.ts';
import { JOBS_CHANNEL, SHARED_QUEUE } from '../../src/core/worker-job.schema.ts';
import { type JobQueue, openJobQueue } from '../../src/engine/workers/job-queue.ts';
import { runWorker } from '../../src/engine/workers/worker.ts';
import * as rows from '../../src/engine/workers/worker-tables.ts';
import { makeTempDir, removeTempDir } from '../helpers/git-fixtures.ts';
import { type WorkerPoolCase, workerPoolCase } from '../helpers/worker-pool-case.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/worker-pool-db.ts';

let db: TestDatabase;
let root: string;
let world: WorkerPoolCase;
let q: JobQueue;

beforeAll(async () => {
  db = await createTestDatabase('t_wk_abandon');
  root = await makeTempDir('tandem-workers-abandoned-');
  world = await workerPoolCase(root);
  q = await openJobQueue({ databaseUrl: db.url });
});

afterAll(async () => {
  await q?.close();
  await db?.drop();
  if (root) await removeTempDir(root);
});

describe('the evaluation of a killed App', () => {
  it('is skipped by the workers and its bundle pruned', async () => {
    const evaluation = '00000000-0000-4000-8000-00000000abcd';
    // What a killed App leaves: its bundle, no longer renewed (its lease ran out), and a job.
    await rows.putBundle(q.db, evaluation, JSON.stringify(await bundleOf(world.spec)), -1);
    const controller = new AbortController();
    let ran = 0;
    let seen!: (line: string) => void;
    const outcome = new Promise<string>((r) => {
      seen = r;
    });
    let ready!: () => void;
    const isReady = new Promise<void>((r) => {
      ready = r;
    });
    const worker = runWorker({
      databaseUrl: db.url,
      hostId: 'w1',
      concurrency: 1,
      runner: async () => {
        ran++;
        throw new Error('an abandoned evaluation must not run');
      },
      scratchDir: path.join(os.tmpdir(), `tandem-workers-abandoned-${process.pid}`),
      signal: controller.signal,
      log: (line) => {
        if (line.includes('taking jobs')) ready();
        if (line.includes('evaluation is over') || line.includes(': running ')) seen(line);
      },
    });
    try {
      await isReady;
      await q.boss.send(SHARED_QUEUE, { evaluation, configuration: 'base', copy: 'shared', deferrals: 0 });
      await q.db.query(`SELECT pg_notify('${JOBS_CHANNEL}', $1)`, [evaluation]);
      expect(await outcome).toMatch(/evaluation is over; skipped/);
      expect(ran).toBe(0);
      expect(await rows.pruneAbandoned(q.db)).toBe(1);
      const left = await q.db.query('SELECT 1 FROM tandem_workers.bundles WHERE evaluation = $1', [
        evaluation,
      ]);
      expect(left.rows).toHaveLength(0);
    } finally {
      controller.abort();
      await worker;
    }
  }, 60_000);
});
