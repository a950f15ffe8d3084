/**
 * `executor: workers` throughput (`npm run bench`; `BENCH_ONLY=workers` runs only this): the
 * App's WorkersExecutor sends evaluations of a 2-target change (`full` matrix: 4 configurations
 * each) to 1, 2 and 3 worker processes (perf/workers-stub-worker.ts: the real worker loop and
 * PostgreSQL round trips, a stub of fixed work per configuration instead of the engine), on a
 * database of its own on the shared server (scripts/start-postgres.sh). Prints configurations per
 * minute for each pool size and its ratio to 1 worker measured in the same run.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { WorkersExecutor } from '../src/app/executors/workers-executor.ts';
import { suiteSchema } from '../src/core/suite.schema.ts';
import { createTestDatabase } from '../test/helpers/worker-pool-db.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export interface WorkersFigure {
  workers: number;
  configurations: number;
  seconds: number;
  perMinute: number;
  /** perMinute against the 1-worker figure of the same run. */
  ratio: number;
}

export interface WorkersBench {
  workMs: number;
  evaluations: number;
  figures: WorkersFigure[];
}

function startWorker(databaseUrl: string, hostId: string, workMs: number): Promise<ChildProcess> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(ROOT, 'perf/workers-stub-worker.ts'), hostId],
    {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'inherit'],
      env: { ...process.env, DATABASE_URL: databaseUrl, WORK_MS: String(workMs) },
    },
  );
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`worker ${hostId} exited (${code}) before taking jobs`)));
    child.stdout!.on('data', (b: Buffer) => {
      if (b.toString().includes('ready')) resolve(child);
    });
  });
}

async function stop(children: ChildProcess[]): Promise<void> {
  await Promise.all(
    children.map(
      (c) =>
        new Promise<void>((resolve) => {
          if (c.exitCode !== null) return resolve();
          c.once('exit', () => resolve());
          c.kill('SIGTERM');
        }),
    ),
  );
}

export async function runWorkersBench(
  log: (s: string) => void,
  opts: { workMs?: number; evaluations?: number } = {},
): Promise<WorkersBench> {
  const workMs = opts.workMs ?? 400;
  const evaluations = opts.evaluations ?? 6;
  const db = await createTestDatabase('t_wk_bench');
  const dir = await mkdtemp(path.join(os.tmpdir(), 'tandem-workers-bench-'));
  const figures: WorkersFigure[] = [];
  try {
    const suite = suiteSchema.parse({
      name: 'stub',
      image: 'tandem/sandbox:node20',
      tests: [{ name: 'check', run: 'true', results: { format: 'tap', path: 'r.tap' } }],
    });
    await writeFile(path.join(dir, 'suite.yml'), JSON.stringify(suite));
    for (const n of [1, 2, 3]) {
      // Fresh executor and queues per pool size: no figure inherits another's warm state.
      const executor = new WorkersExecutor({
        databaseUrl: db.url,
        fallback: { run: () => Promise.reject(new Error('not a workers evaluation')) },
        leaseSeconds: 120,
        log: { warn: (o, m) => log(`${m} ${JSON.stringify(o)}`) },
      });
      const children: ChildProcess[] = [];
      try {
        for (let i = 0; i < n; i++) children.push(await startWorker(db.url, `bench-${n}-${i}`, workMs));
        log(`${n} worker(s): ${evaluations} evaluations × 4 configurations, ${workMs} ms of work each…`);
        const started = Date.now();
        const reports = await Promise.all(
          Array.from({ length: evaluations }, (_, k) =>
            executor.run(
              {
                evaluationId: k,
                name: `stub change ${k}`,
                targets: ['acme/api', 'acme/web'].map((repo) => ({
                  repo,
                  url: `https://example.invalid/${repo}-${k}.git`,
                  base: 'b'.repeat(40),
                  head: 'h'.repeat(40),
                  merge: true,
                })),
                context: [],
                suite,
                suiteDir: dir,
                suitePath: 'suite.yml',
                matrix: 'full',
                workers: true,
              },
              new AbortController().signal,
            ),
          ),
        );
        const seconds = (Date.now() - started) / 1000;
        if (!reports.every((r) => r.verdict.resolved)) throw new Error('a stub evaluation was not resolved');
        const configurations = reports.reduce((s, r) => s + r.configurations.length, 0);
        const perMinute = (configurations / seconds) * 60;
        figures.push({
          workers: n,
          configurations,
          seconds,
          perMinute,
          ratio: perMinute / (figures[0]?.perMinute ?? perMinute),
        });
      } finally {
        await stop(children);
        await executor.close();
      }
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
    await db.drop();
  }
  return { workMs, evaluations, figures };
}

export function printWorkersBench(b: WorkersBench): string {
  const rows = b.figures.map(
    (f) =>
      `${String(f.workers).padStart(7)}  ${String(f.configurations).padStart(14)}  ${f.seconds.toFixed(1).padStart(7)}  ${f.perMinute.toFixed(0).padStart(11)}  ${f.ratio.toFixed(2).padStart(5)}×`,
  );
  return [
    `Worker pool (executor: workers; stub of ${b.workMs} ms per configuration, 1 at a time per worker process)`,
    'workers  configurations  seconds  configs/min  vs 1 worker',
    ...rows,
  ].join('\n');
}
