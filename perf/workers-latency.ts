/**
 * Where one configuration's time goes on `executor: workers`, between the App sending it and the
 * App having its answer: `npx tsx perf/workers-latency.ts [evaluations]`. One worker (the real
 * loop, src/engine/workers/worker.ts, in this process) with 4 slots and a stub runner that does
 * no work, so every millisecond measured is the round trip itself; evaluations of a 2-target
 * change (`full`: 4 configurations) one after another, on a database of its own on the shared
 * server (scripts/start-postgres.sh). Prints the median and p90 of each leg:
 * send (the App's run() → its jobs sent, the bundle stored), pick-up (jobs sent → the runner
 * starts: NOTIFY, fetch, claim), answer (the runner returns → the App has the answer: store with
 * NOTIFY, the App reading it), finish (the last answer → run() resolves: grading, rows dropped).
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { WorkersExecutor } from '../src/app/executors/workers-executor.ts';
import { suiteSchema } from '../src/core/suite.schema.ts';
import type { ConfigurationRunner } from '../src/engine/workers/run-job.ts';
import { runWorker } from '../src/engine/workers/worker.ts';
import { createTestDatabase } from '../test/helpers/worker-pool-db.ts';
import { stubWorkerReport } from './stub-worker-report.ts';

const evaluations = Number(process.argv[2] ?? 20);
const starts = new Map<string, number>();
const ends = new Map<string, number>();

const stub: ConfigurationRunner = async ({ bundle, configuration }) => {
  starts.set(`${bundle.name}/${configuration}`, performance.now());
  const report = stubWorkerReport({ bundle, configuration });
  ends.set(`${bundle.name}/${configuration}`, performance.now());
  return report;
};

const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? Number.NaN;
};

const db = await createTestDatabase('t_wk_latency');
const dir = await mkdtemp(path.join(os.tmpdir(), 'tandem-workers-latency-'));
const controller = new AbortController();
let ready!: () => void;
const isReady = new Promise<void>((r) => {
  ready = r;
});
const worker = runWorker({
  databaseUrl: db.url,
  hostId: 'latency',
  concurrency: 4,
  runner: stub,
  scratchDir: path.join(os.tmpdir(), `tandem-workers-latency-${process.pid}`),
  signal: controller.signal,
  log: (line) => {
    if (line.includes('taking jobs')) ready();
  },
});
const executor = new WorkersExecutor({
  databaseUrl: db.url,
  fallback: { run: () => Promise.reject(new Error('not a workers evaluation')) },
  log: { warn: (o, m) => console.error(m, JSON.stringify(o)) },
});
const legs = { send: [] as number[], pickup: [] as number[], answer: [] as number[], finish: [] as number[] };
try {
  await isReady;
  const suite = suiteSchema.parse({
    name: 'stub',
    image: 'tandem/sandbox:node20',
    tests: [{ name: 'check', run: 'true', results: { format: 'tap', path: 'r.tap' } }],
  });
  await writeFile(path.join(dir, 'suite.yml'), JSON.stringify(suite));
  for (let k = -2; k < evaluations; k++) {
    const name = `latency ${k}`;
    const t0 = performance.now();
    let sent = 0;
    const answered = new Map<string, number>();
    await executor.run(
      {
        evaluationId: k,
        name,
        targets: ['acme/api', 'acme/web'].map((repo) => ({
          repo,
          url: `https://example.invalid/${repo}.git`,
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
      (e) => {
        if (e.type === 'plan') sent = performance.now();
        if (e.type === 'configuration-done') answered.set(e.id, performance.now());
      },
    );
    const t1 = performance.now();
    if (k < 0) continue; // warm-up: connections, queues, the first bundle folder
    legs.send.push(sent - t0);
    for (const [cfg, at] of answered) {
      const s = starts.get(`${name}/${cfg}`);
      const e = ends.get(`${name}/${cfg}`);
      if (s !== undefined) legs.pickup.push(s - sent);
      if (e !== undefined) legs.answer.push(at - e);
    }
    legs.finish.push(t1 - Math.max(...answered.values()));
  }
  console.log(
    `Per-configuration round trip, ${evaluations} evaluations × 4 configurations, 1 worker of 4 slots, no work`,
  );
  console.log('leg                                   median    p90 (ms)');
  const row = (label: string, xs: number[]) =>
    console.log(
      `${label.padEnd(36)}${quantile(xs, 0.5).toFixed(1).padStart(8)}${quantile(xs, 0.9).toFixed(1).padStart(8)}`,
    );
  row('run() → plan event (before sending)', legs.send);
  row('plan → runner starts (send, pick-up)', legs.pickup);
  row('runner returns → App has the answer', legs.answer);
  row('last answer → run() resolves', legs.finish);
} finally {
  controller.abort();
  await worker;
  await executor.close();
  await rm(dir, { recursive: true, force: true });
  await db.drop();
}
