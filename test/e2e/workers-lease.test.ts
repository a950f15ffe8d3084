/**
 * A configuration job's lease is renewed by its worker's heartbeat (the claim), not a fixed job
 * deadline: real PostgreSQL (a database of this test's own), real `tandem worker` processes (the
 * development process sandbox) and the App's WorkersExecutor, with a 2-second lease.
 *
 * - A configuration held far longer than the lease on a live worker runs once: the other worker
 *   finds the claim alive each time pg-boss's expiry brings the job back, and puts it back.
 * - A worker frozen (SIGSTOP: the process there, silent, as on a host that stopped answering)
 *   loses it: the other worker runs it and the evaluation completes; the frozen worker, resumed,
 *   has its late answer refused (never counted twice).
 * Everything waits on events: the file the held check writes, log lines, the report promise.
 */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WorkersExecutor } from '../../src/app/executors/workers-executor.ts';
import { makeTempDir, removeTempDir } from '../helpers/git-fixtures.ts';
import { type WorkerPoolCase, workerPoolCase } from '../helpers/worker-pool-case.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/worker-pool-db.ts';
import { startWorker, type WorkerProcess } from '../helpers/worker-processes.ts';

let db: TestDatabase;
let root: string;
const worlds: WorkerPoolCase[] = [];
const workers: WorkerProcess[] = [];

beforeAll(async () => {
  db = await createTestDatabase();
  root = await makeTempDir('tandem-workers-lease-');
});

afterAll(async () => {
  for (const w of worlds) await w.gate.release();
  for (const w of workers) await w.kill();
  await db?.drop();
  if (root) await removeTempDir(root);
});

async function setUp(name: string) {
  const dir = path.join(root, name);
  await mkdir(dir);
  const world = await workerPoolCase(dir);
  worlds.push(world);
  const executor = new WorkersExecutor({
    databaseUrl: db.url,
    fallback: { run: () => Promise.reject(new Error('not a workers evaluation')) },
    leaseSeconds: 2,
    maintenanceSeconds: 1,
    // The first test's workers, killed, still look alive for a while and hold the repository: no
    // grace for their host queue.
    graceSeconds: 0,
    log: { warn: () => {} },
  });
  const worker = (hostId: string) => {
    const w = startWorker({
      databaseUrl: db.url,
      hostId: `${name}-${hostId}`,
      cacheDir: path.join(dir, `cache-${hostId}`),
      sandbox: 'process',
    });
    workers.push(w);
    return w;
  };
  /** Ends this test's workers (idle ones would take the next test's jobs) and its connection. */
  const close = async () => {
    for (const w of workers.splice(0)) await w.kill();
    await executor.close();
  };
  return { world, executor, worker, close };
}

const runs = (w: WorkerProcess, held: string) =>
  w.lines.filter((l) => l.includes(`running configuration ${held} of evaluation`));

describe('worker leases', () => {
  it('keep a configuration longer than the lease on its live worker: it runs once', async () => {
    const { world, executor, worker, close } = await setUp('long');
    try {
      await world.gate.arm();
      const a = worker('a');
      const evaluating = executor.run(world.spec, new AbortController().signal);
      const held = await world.gate.held();
      const b = worker('b');
      // pg-boss's expiry (2 s) brings the job back to b while a still runs it: b must find the
      // claim alive and put it back — not run it a second time.
      const seen = await b.line(
        (l) => l.includes(`configuration ${held} of evaluation`) && /put back|running/.test(l),
      );
      expect(seen).toContain('held by a live worker; put back');
      await world.gate.release();
      const report = await evaluating;

      expect(report.verdict.resolved).toBe(true);
      expect(report.infraErrors).toEqual([]);
      expect(runs(a, held)).toHaveLength(1);
      expect(runs(b, held)).toHaveLength(0);
      expect(
        a.lines.some((l) => l.includes(`configuration ${held} of evaluation`) && l.includes('reported')),
      ).toBe(true);
    } finally {
      await close();
    }
  }, 120_000);

  it("give a frozen worker's configuration to another worker and refuse its late answer", async () => {
    const { world, executor, worker, close } = await setUp('frozen');
    try {
      await world.gate.arm();
      const a = worker('a');
      const evaluating = executor.run(world.spec, new AbortController().signal);
      const held = await world.gate.held();
      const b = worker('b');
      // Frozen, not dead: no heartbeat, no cleanup, the process still there.
      a.signal('SIGSTOP');
      const report = await evaluating;
      expect(report.verdict.resolved).toBe(true);
      expect(report.infraErrors).toEqual([]);
      expect(runs(b, held)).toHaveLength(1);

      // Resumed, its run goes on to the end; what it produced is refused, not stored.
      a.signal('SIGCONT');
      await world.gate.release();
      const late = await a.line(
        (l) => l.includes(`configuration ${held} of evaluation`) && /took over|reported/.test(l),
      );
      expect(late).toContain('another worker took over its claim');
      expect(a.lines.some((l) => l.includes('reported'))).toBe(false);
    } finally {
      await close();
    }
  }, 120_000);
});
