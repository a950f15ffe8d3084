/**
 * `executor: workers` end to end: real PostgreSQL (a database of this test's own), two real
 * `tandem worker` processes (bin/tandem.js, the development process sandbox: the engine's own
 * pipeline with real git repositories, commands as host processes), and the App's
 * WorkersExecutor. The worker running the first configuration is SIGKILLed while it holds it; the
 * job's lease (3 s here) expires, the job is retried on the other worker, the killed attempt
 * counts for nothing, and the evaluation completes with the report a local evaluation gives.
 * Everything waits on events: a file the held check writes, the report promise.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalExecutor } from '../../src/app/executors/executor.ts';
import { WorkersExecutor } from '../../src/app/executors/workers-executor.ts';
import type { EvaluationEvent } from '../../src/core/evaluation-event.ts';
import { makeTempDir, removeTempDir } from '../helpers/git-fixtures.ts';
import { type WorkerPoolCase, workerPoolCase } from '../helpers/worker-pool-case.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/worker-pool-db.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const BIN = path.join(ROOT, 'bin/tandem.js');

interface WorkerProcess {
  child: ChildProcess;
  lines: string[];
}

let db: TestDatabase;
let root: string;
let world: WorkerPoolCase;
const workers: WorkerProcess[] = [];

function startWorker(hostId: string): WorkerProcess {
  // Detached: the worker leads its own process group, killed as a whole below.
  const child = spawn(
    process.execPath,
    [BIN, 'worker', '--database-url', db.url, '--host-id', hostId, '--sandbox', 'process'],
    {
      detached: true,
      stdio: ['ignore', 'ignore', 'pipe'],
      env: {
        ...process.env,
        TANDEM_ALLOW_PROCESS_SANDBOX: '1',
        TANDEM_CACHE_DIR: path.join(root, `cache-${hostId}`),
      },
    },
  );
  const w = { child, lines: [] as string[] };
  let rest = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    const parts = (rest + chunk.toString()).split('\n');
    rest = parts.pop() ?? '';
    w.lines.push(...parts);
  });
  workers.push(w);
  return w;
}

function kill(w: WorkerProcess): Promise<void> {
  const exited = new Promise<void>((resolve) => w.child.once('exit', () => resolve()));
  process.kill(-w.child.pid!, 'SIGKILL');
  return exited;
}

beforeAll(async () => {
  db = await createTestDatabase();
  root = await makeTempDir('tandem-workers-kill-');
  await mkdir(path.join(root, 'app'));
  world = await workerPoolCase(root);
});

afterAll(async () => {
  await world?.gate.release();
  for (const w of workers) if (w.child.exitCode === null && w.child.signalCode === null) await kill(w);
  await db?.drop();
  if (root) await removeTempDir(root);
});

describe('tandem worker', () => {
  it('retries the job of a worker killed mid-job on another worker; the evaluation completes', async () => {
    const executor = new WorkersExecutor({
      databaseUrl: db.url,
      fallback: { run: () => Promise.reject(new Error('not a workers evaluation')) },
      leaseSeconds: 3,
      maintenanceSeconds: 1,
      log: { warn: () => {} },
    });
    try {
      await world.gate.arm();
      const a = startWorker('a');
      const events: EvaluationEvent[] = [];
      const evaluating = executor.run(world.spec, new AbortController().signal, (e) => events.push(e));
      // Worker a holds the first configuration it took; only then does worker b join.
      const held = await world.gate.held();
      const b = startWorker('b');
      await kill(a);
      const report = await evaluating;

      expect(report.verdict.resolved).toBe(true);
      expect(report.configurations.map((c) => [c.id, c.outcome]).sort()).toEqual([
        ['base', 'fail'],
        ['full', 'pass'],
      ]);
      expect(report.infraErrors).toEqual([]);
      // The running check's events, as a local run's: the plan, then each configuration judged.
      expect(events[0]?.type).toBe('plan');
      expect(
        events.flatMap((e) => (e.type === 'configuration-done' ? [[e.id, e.outcome]] : [])).sort(),
      ).toEqual([
        ['base', 'fail'],
        ['full', 'pass'],
      ]);
      // a took the held configuration and never answered; b ran it after a's lease expired.
      expect(a.lines.some((l) => l.includes(`running configuration ${held} `))).toBe(true);
      expect(a.lines.some((l) => l.includes('reported'))).toBe(false);
      expect(
        b.lines.some((l) => l.includes(`configuration ${held} of evaluation`) && l.includes('reported')),
      ).toBe(true);
      // Nothing logged names a clone URL or the hidden check's content.
      for (const line of [...a.lines, ...b.lines]) {
        expect(line).not.toContain(world.url);
        expect(line).not.toContain('value is new');
      }

      // The report a local evaluation of the same change gives (same engine, same grading).
      const { workers: _onWorkers, ...onLocalHost } = world.spec;
      const local = await new LocalExecutor({
        cacheDir: path.join(root, 'app'),
        host: { cacheDir: path.join(root, 'app') },
        sandbox: 'process',
      }).run(onLocalHost, new AbortController().signal);
      const view = (r: typeof report) => ({
        verdict: r.verdict,
        configurations: r.configurations.map((c) => ({ id: c.id, outcome: c.outcome, tests: c.tests })),
        targets: r.targets,
      });
      expect(view(report)).toEqual(view(local));
    } finally {
      await executor.close();
    }
  }, 120_000);
});
