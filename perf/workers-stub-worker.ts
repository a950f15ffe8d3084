/**
 * One worker process of perf/workers-bench.ts: the real worker loop (src/engine/workers/worker.ts:
 * pg-boss fetch, claim, result stored with NOTIFY) with a stub in place of the engine, so each
 * configuration is a fixed amount of work (`WORK_MS` of waiting, as on a sandbox) and the figure
 * measures how the pool spreads configurations, not Docker. Argument: the host id.
 * Environment: DATABASE_URL, WORK_MS, WORKER_CONCURRENCY (slots, default 1). Prints `ready` once
 * taking jobs and `running` as each configuration starts (perf/replicas-bench.ts kills a worker
 * holding a job on it). Stops on SIGTERM.
 */
import os from 'node:os';
import path from 'node:path';
import type { ConfigurationRunner } from '../src/engine/workers/run-job.ts';
import { runWorker } from '../src/engine/workers/worker.ts';
import { stubWorkerReport } from './stub-worker-report.ts';

const hostId = process.argv[2] ?? 'bench';
const workMs = Number(process.env.WORK_MS ?? 400);

/** Waits the fixed work, then answers the partial report of a change every target is needed for. */
const stub: ConfigurationRunner = async ({ bundle, configuration, signal }) => {
  await new Promise<void>((resolve, reject) => {
    const t = setTimeout(resolve, workMs);
    signal.addEventListener('abort', () => {
      clearTimeout(t);
      reject(new Error('interrupted'));
    });
  });
  return stubWorkerReport({ bundle, configuration });
};

const controller = new AbortController();
process.on('SIGTERM', () => controller.abort());
await runWorker({
  databaseUrl: process.env.DATABASE_URL ?? '',
  hostId,
  concurrency: Number(process.env.WORKER_CONCURRENCY ?? 1),
  runner: stub,
  scratchDir: path.join(os.tmpdir(), `tandem-workers-bench-${process.pid}`),
  signal: controller.signal,
  log: (line) => {
    if (line.includes('taking jobs')) process.stdout.write('ready\n');
    if (line.includes(': running ')) process.stdout.write('running\n');
  },
});
