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
import { urlWithoutCredentials } from '../src/core/credentials.ts';
import { planMatrix } from '../src/core/matrix-plan.ts';
import type { ConfigurationRunner } from '../src/engine/workers/run-job.ts';
import { runWorker } from '../src/engine/workers/worker.ts';
import { id, reportFrom, simulate } from '../test/helpers/runs.ts';

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
  const plan = planMatrix(
    bundle.targets.map((t) => t.repo),
    bundle.matrix,
  );
  const all = simulate(plan, (a) => ({
    [id('check', 'works')]: a.size === plan.targets.length ? 'passed' : 'failed',
  }));
  const report = reportFrom({
    plan,
    runs: all.filter((r) => r.id === configuration),
    groups: [{ name: 'check' }],
    shard: configuration,
  });
  // The App believes a report only of the change it sent (name, suite, repositories and URLs).
  const url = (u: string) => urlWithoutCredentials(u);
  return {
    ...report,
    name: bundle.name,
    suite: { ...report.suite, name: bundle.suite.name },
    targets: report.targets.map((t, i) => ({ ...t, url: url(bundle.targets[i]?.url ?? t.url) })),
    context: bundle.context.map((c) => ({ repo: c.repo, url: url(c.url), ref: c.ref, sha: 'c'.repeat(40) })),
  };
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
