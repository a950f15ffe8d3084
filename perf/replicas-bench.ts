/**
 * The scale-out proof (issue 27 item 5; `BENCH_ONLY=replicas npm run bench`): the App bench's
 * scenario (perf/app-scenario.ts) against N App replicas — real processes
 * (test/support/app-process.ts) over HTTP, on one PostgreSQL database of the bench's own on the
 * server scripts/start-postgres.sh starts — with the organization on `executor: workers` and W
 * worker processes (perf/workers-stub-worker.ts: the real worker loop, a stub in place of the
 * engine) taking its configurations. Every delivery reaches two live replicas at once (same id,
 * same body); one replica is SIGKILLed at the middle delivery (later deliveries go to the live
 * ones, as a load balancer sends them) and one worker as soon as it starts a job after a third of
 * the deliveries. Polls here are the bench watching GitHub and the database from outside.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path, { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { createTestDatabase } from '../test/helpers/worker-pool-db.ts';
import { startGitHubStandIn } from '../test/support/github-standin/index.ts';
import { createWebhookSender } from '../test/support/webhook-sender.ts';
import {
  BENCH_SECRET,
  benchAppEnv,
  freePort,
  percentile,
  sleep,
  startAppProcess,
  until,
} from './app-process-control.ts';
import { type ScenarioDelivery, seedAppScenario, type WebhookSender } from './app-scenario.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export interface ReplicasBenchOptions {
  sets?: number;
  replicas?: number;
  /** Worker processes started; one is killed mid-job, so W − 1 finish the run. */
  workers?: number;
  /** Deliveries in flight at once (each to two replicas). */
  parallel?: number;
  /** Pause between bursts (a busy day's bursts are seconds apart). */
  burstGapMs?: number;
  /** How long to wait for every check, then every comment, after the last delivery (default 15 min). */
  settleMs?: number;
  /** `local`: each replica's stub executor instead of the worker pool (to tell the two costs apart). */
  executor?: 'local' | 'workers';
  /** The stub worker's work per configuration. */
  workMs?: number;
  log?: (s: string) => void;
}

export interface ReplicasBenchResult {
  replicas: number;
  workers: number;
  sets: number;
  pulls: number;
  deliveries: number;
  /** Every delivery was sent to this many replicas at once. */
  sentTo: number;
  p50Ms: number;
  p99Ms: number;
  /** The delivery (0-based, over all bursts) at which a replica was SIGKILLed. */
  replicaKilledAt: number;
  /** Configurations the killed worker held (claimed, no result) when it was SIGKILLed. */
  workerKilledHolding: number;
  /** Configurations the worker processes started, retries included. */
  configurationsStarted: number;
  lastDeliveryToChecksS: number;
  lastDeliveryToCommentsS: number;
  lost: { checks: number; comments: number };
  duplicated: { checks: number; comments: number };
  orphaned: { checks: number };
  /** Every final head's last completed check, by conclusion (`success`: the stub's RESOLVED). */
  finalConclusions: Record<string, number>;
  secondaryLimited: number;
}

interface Worker {
  child: ChildProcess;
  hostId: string;
  /** Called on each job the worker starts. */
  onRunning?: () => void;
}

function startWorker(
  databaseUrl: string,
  hostId: string,
  workMs: number,
  count: () => void,
): Promise<Worker> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(ROOT, 'perf/workers-stub-worker.ts'), hostId],
    {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'inherit'],
      env: { ...process.env, DATABASE_URL: databaseUrl, WORK_MS: String(workMs), WORKER_CONCURRENCY: '2' },
    },
  );
  const worker: Worker = { child, hostId };
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`worker ${hostId} exited (${code}) before taking jobs`)));
    createInterface({ input: child.stdout! }).on('line', (line) => {
      if (line === 'ready') resolve(worker);
      if (line === 'running') {
        count();
        worker.onRunning?.();
      }
    });
  });
}

export async function runReplicasBench(opts: ReplicasBenchOptions = {}): Promise<ReplicasBenchResult> {
  const sets = opts.sets ?? 100;
  const replicaCount = opts.replicas ?? 3;
  const workerCount = opts.workers ?? 3;
  const parallel = opts.parallel ?? 10;
  const gap = opts.burstGapMs ?? 5_000;
  const log = opts.log ?? ((s: string) => process.stderr.write(`replicas bench: ${s}\n`));
  const database = await createTestDatabase('t_rep_bench');
  const dir = await mkdtemp(join(tmpdir(), 'tandem-replicas-bench-'));
  const standIn = await startGitHubStandIn({
    secondaryLimits: { contentPerMinute: 80 },
    coreLimit: 1_000_000,
  });
  const apps: Array<{ child: ChildProcess; sender: WebhookSender; live: boolean }> = [];
  const workers: Worker[] = [];
  const db = new pg.Pool({ connectionString: database.url, max: 2 });
  try {
    const scenario = seedAppScenario(standIn, { sets, executor: opts.executor ?? 'workers' });
    const { pulls, bursts } = scenario;
    // One after another: the first migrates the schema, the others find it.
    for (let i = 0; i < replicaCount; i++) {
      const port = await freePort();
      const url = `http://127.0.0.1:${port}`;
      const child = await startAppProcess(
        benchAppEnv(standIn, port, join(dir, `replica-${i}`), { DATABASE_URL: database.url }),
        url,
      );
      apps.push({
        child,
        sender: createWebhookSender({ url: `${url}/api/github/webhooks`, secret: BENCH_SECRET }),
        live: true,
      });
    }
    let configurationsStarted = 0;
    for (let i = 0; i < workerCount; i++)
      workers.push(
        await startWorker(database.url, `bench-host-${i}`, opts.workMs ?? 100, () => {
          configurationsStarted += 1;
        }),
      );
    log(`${replicaCount} replicas and ${workerCount} workers on ${database.url.replace(/^.*\//, '')}`);

    const total = bursts.reduce((n, b) => n + b.length, 0);
    const replicaKilledAt = Math.floor(total / 2);
    const workerKillFrom = Math.floor(total / 3);
    let workerKilledHolding = -1;
    let workerKilled: Promise<void> | undefined;
    // The first worker to start a job once armed is killed while it holds it: frozen first
    // (SIGSTOP: it can store nothing more), then killed if it holds a configuration without its
    // answer — on a loaded machine its job may have ended before the bench read the line — or
    // let go again to wait for the next start.
    const holdingOf = async (hostId: string): Promise<number> => {
      const r = await db.query(
        `SELECT count(*)::int AS n FROM tandem_workers.claims c WHERE c.host_id = $1 AND NOT EXISTS
           (SELECT 1 FROM tandem_workers.answers a WHERE a.evaluation = c.evaluation
              AND a.configuration = c.configuration AND a.token IS NOT DISTINCT FROM c.token)`,
        [hostId],
      );
      return r.rows[0].n as number;
    };
    let disarmed = false;
    const armWorkerKill = () => {
      workerKilled = new Promise<void>((resolve) => {
        const arm = () => {
          if (disarmed) return resolve();
          for (const victim of workers)
            victim.onRunning = () => {
              for (const w of workers) w.onRunning = undefined;
              victim.child.kill('SIGSTOP');
              void holdingOf(victim.hostId)
                .then((n) => {
                  if (n === 0) {
                    victim.child.kill('SIGCONT');
                    arm();
                    return;
                  }
                  victim.child.kill('SIGKILL');
                  workerKilledHolding = n;
                  log(`worker ${victim.hostId} SIGKILLed holding ${n} configuration(s)`);
                  resolve();
                })
                // A failed count must not end the run it describes.
                .catch((e: unknown) => {
                  victim.child.kill('SIGKILL');
                  log(`could not count what the killed worker held: ${String(e)}`);
                  resolve();
                });
            };
        };
        arm();
      });
    };

    const latencies: number[] = [];
    let sequence = 0;
    const deliver = async (d: ScenarioDelivery, k: number) => {
      for (let attempt = 0; ; attempt++) {
        const live = apps.filter((a) => a.live);
        const to = [live[(k + attempt) % live.length]!, live[(k + attempt + 1) % live.length]!];
        const t = performance.now();
        const statuses = await d.send([...new Set(to)].map((a) => a.sender)).catch(() => [] as number[]);
        // Accepted by a replica: as a load balancer, the retry goes to a live one otherwise.
        if (statuses.some((s) => s < 300)) {
          latencies.push(performance.now() - t);
          return;
        }
        await sleep(200);
      }
    };
    let lastDeliveryAt = 0;
    for (const [b, burst] of bursts.entries()) {
      let next = 0;
      const lane = async () => {
        while (next < burst.length) {
          const i = next++;
          const k = sequence++;
          if (k === replicaKilledAt) {
            const victim = apps[apps.length - 1]!;
            victim.live = false;
            victim.child.kill('SIGKILL');
            log(`replica ${apps.length - 1} SIGKILLed at delivery ${k}`);
          }
          if (k === workerKillFrom) armWorkerKill();
          await deliver(burst[i]!, k);
        }
      };
      await Promise.all(Array.from({ length: parallel }, lane));
      lastDeliveryAt = performance.now();
      log(`burst ${b + 1} of ${bursts.length} delivered`);
      if (b < bursts.length - 1 && gap > 0) await sleep(gap);
    }

    // No evaluation still queued or running without its verdict (on any replica), and every final head completed.
    const unfinished = async () =>
      Number(
        (
          await db.query(
            "SELECT count(*)::int AS n FROM evaluations WHERE state = 'queued' OR (state = 'running' AND outcome IS NULL)",
          )
        ).rows[0].n,
      );
    const checksDone = async () => scenario.checksCompleted() === pulls.length && (await unfinished()) === 0;
    const commentsDone = () => scenario.commentsUpToDate() === pulls.length;
    const progress = setInterval(() => {
      log(
        `${scenario.checksCompleted()}/${pulls.length} final checks, ${scenario.commentsUpToDate()} comments up to date`,
      );
      const missing = process.env.TANDEM_BENCH_LOG ? scenario.firstMissing() : undefined;
      if (missing) log(`  ${missing}`);
    }, 10_000);
    let lastDeliveryToChecksS = -1;
    let lastDeliveryToCommentsS = -1;
    try {
      await until(checksDone, opts.settleMs ?? 900_000, 'every final head completed', 250).catch(() => {});
      if (await checksDone())
        lastDeliveryToChecksS = Math.round((performance.now() - lastDeliveryAt) / 100) / 10;
      await until(commentsDone, opts.settleMs ?? 900_000, 'every comment up to date', 250).catch(() => {});
      if (commentsDone())
        lastDeliveryToCommentsS = Math.round((performance.now() - lastDeliveryAt) / 100) / 10;
      // Armed but no job started after: nothing to wait for (reported as -1).
      disarmed = true;
      if (workers.some((w) => w.onRunning)) for (const w of workers) w.onRunning = undefined;
      else await workerKilled;
    } finally {
      clearInterval(progress);
    }
    const sorted = latencies.sort((a, b) => a - b);
    return {
      replicas: replicaCount,
      workers: workerCount,
      sets,
      pulls: pulls.length,
      deliveries: total,
      sentTo: Math.min(2, replicaCount),
      p50Ms: percentile(sorted, 50),
      p99Ms: percentile(sorted, 99),
      replicaKilledAt,
      workerKilledHolding,
      configurationsStarted,
      lastDeliveryToChecksS,
      lastDeliveryToCommentsS,
      ...scenario.outcome(),
      secondaryLimited: standIn.secondaryLimited,
    };
  } finally {
    await db.end().catch(() => {});
    await Promise.all(
      [...apps.map((a) => a.child), ...workers.map((w) => w.child)].map(
        (c) =>
          new Promise<void>((resolve) => {
            if (c.exitCode !== null || c.signalCode !== null) return resolve();
            const hard = setTimeout(() => c.kill('SIGKILL'), 15_000);
            c.once('exit', () => {
              clearTimeout(hard);
              resolve();
            });
            c.kill('SIGTERM');
          }),
      ),
    );
    await standIn.close();
    await database.drop();
    await rm(dir, { recursive: true, force: true });
  }
}

// `npx tsx perf/replicas-bench.ts [sets] [workers|local]`: one run, its figures as one JSON line.
if (import.meta.url === `file://${process.argv[1]}`) {
  const sets = Number(process.argv[2] ?? 100);
  const executor = process.argv[3] === 'local' ? 'local' : 'workers';
  console.log(JSON.stringify(await runReplicasBench({ sets, executor })));
}
