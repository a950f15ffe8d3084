/**
 * App scenario for `npm run bench` (issue 22): an organization with 100 linked sets (250 PRs in
 * acme/a, acme/b, acme/c) on a busy day. 1,000 signed deliveries in four bursts (opens, pushes,
 * link edits, `/tandem run`), 10 in flight, against the real App server as its own process
 * (`test/support/app-process.ts`, stub executor: no engine) through the GitHub stand-in with
 * GitHub's secondary limit simulated (403 with `retry-after` past 80 content-creating requests a
 * minute). The App is SIGKILLed halfway through the third burst and started again; deliveries
 * refused meanwhile are sent again, as GitHub redelivers.
 *
 * Prints webhook → 2xx p50/p99, RSS idle and max, last delivery → every final head's check
 * completed (and every comment up to date), kill → listening and → first completed evaluation,
 * and the lost, duplicated and orphaned checks and comments (all must be 0). Polling here is the
 * benchmark watching from outside, as a user would; no test waits on it.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { startGitHubStandIn } from '../test/support/github-standin/index.ts';
import { createWebhookSender } from '../test/support/webhook-sender.ts';
import {
  BENCH_SECRET,
  benchAppEnv,
  freePort,
  percentile,
  rssMb,
  sleep,
  startAppProcess,
  until,
} from './app-process-control.ts';
import { type ScenarioDelivery, seedAppScenario } from './app-scenario.ts';

export interface AppBenchResult {
  sets: number;
  pulls: number;
  deliveries: number;
  parallel: number;
  loadAvg: number;
  p50Ms: number;
  p99Ms: number;
  idleRssMb: number;
  maxRssMb: number;
  /** Last delivery answered → every final head's `Tandem` check completed. */
  lastDeliveryToChecksS: number;
  /** Last delivery answered → every sticky comment names its PR's final head. */
  lastDeliveryToCommentsS: number;
  killToListeningMs: number;
  killToFirstCompletedMs: number;
  lost: { checks: number; comments: number };
  duplicated: { checks: number; comments: number };
  orphaned: { checks: number };
  /** Every final head's last completed check, by conclusion (`success`: the stub's RESOLVED). */
  finalConclusions: Record<string, number>;
  /** Requests the stand-in refused with its simulated secondary limit. */
  secondaryLimited: number;
}

type Json = Record<string, unknown>;

export async function runAppBench(
  opts: { sets?: number; concurrency?: number } = {},
): Promise<AppBenchResult> {
  const sets = opts.sets ?? 100;
  const parallel = opts.concurrency ?? 10;
  const dir = await mkdtemp(join(tmpdir(), 'tandem-app-bench-'));
  // The App's primary budget on GitHub depends on the organization; it is not what is measured.
  const standIn = await startGitHubStandIn({
    secondaryLimits: { contentPerMinute: 80 },
    coreLimit: 1_000_000,
  });
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const env = benchAppEnv(standIn, port, join(dir, 'data'));

  let child: ChildProcess | undefined;
  const start = async (): Promise<void> => {
    child = await startAppProcess(env, url);
  };
  try {
    const scenario = seedAppScenario(standIn, { sets });
    const { pulls, bursts } = scenario;

    await start();
    await sleep(500);
    const idleRssMb = rssMb(child?.pid);
    let maxRssMb = idleRssMb;
    const sampler = setInterval(() => {
      maxRssMb = Math.max(maxRssMb, rssMb(child?.pid));
    }, 200);

    const sender = createWebhookSender({ url: `${url}/api/github/webhooks`, secret: BENCH_SECRET });
    const latencies: number[] = [];
    let killAt = 0;
    let killToListeningMs = 0;
    let killCursor = 0;
    let restarting: Promise<void> | undefined;
    const deliver = async (d: ScenarioDelivery) => {
      for (;;) {
        const t = performance.now();
        const [status] = await d.send([sender]).catch(() => [599]);
        if (status !== undefined && status < 300) {
          latencies.push(performance.now() - t);
          return;
        }
        // Refused while the App is down: GitHub delivers again later (the same delivery id).
        await (restarting ?? sleep(200));
      }
    };
    let lastDeliveryAt = 0;
    for (const [b, burst] of bursts.entries()) {
      let next = 0;
      const worker = async () => {
        while (next < burst.length) {
          const i = next++;
          if (b === 2 && i === Math.floor(burst.length / 2) && !killAt) {
            child?.kill('SIGKILL');
            killAt = performance.now();
            killCursor = standIn.requests.length;
            restarting = start().then(() => {
              killToListeningMs = Math.round(performance.now() - killAt);
              restarting = undefined;
            });
          }
          await deliver(burst[i]!);
        }
      };
      await Promise.all(Array.from({ length: parallel }, worker));
      lastDeliveryAt = performance.now();
      process.stderr.write(`app bench: burst ${b + 1} of ${bursts.length} delivered\n`);
      // Bursts a few seconds apart, as a busy day has them.
      if (b < bursts.length - 1) await sleep(5_000);
    }
    await restarting;

    // Watching GitHub from outside: the first check completed after the kill, then every final head.
    let killToFirstCompletedMs = -1;
    const firstCompletion = (async () => {
      await until(
        () =>
          standIn.requests
            .slice(killCursor)
            .some((r) => r.method === 'PATCH' && /check-runs/.test(r.path) && (r.body as Json)?.conclusion),
        600_000,
        'a completed check after the restart',
      );
      killToFirstCompletedMs = Math.round(performance.now() - killAt);
    })().catch(() => {});
    // The App's own database (read only) says when no evaluation may still move a check: none
    // queued, none running without its verdict (a running one with its verdict recorded has
    // completed its checks and waits only for its comments).
    const db = new Database(join(dir, 'data', 'tandem.db'), { readonly: true });
    const unfinished = () =>
      (
        db
          .prepare(
            "SELECT COUNT(*) AS n FROM evaluations WHERE state = 'queued' OR (state = 'running' AND outcome IS NULL)",
          )
          .get() as {
          n: number;
        }
      ).n;
    const checksDone = () => unfinished() === 0 && scenario.checksCompleted() === pulls.length;
    const commentsDone = () => scenario.commentsUpToDate() === pulls.length;
    let lastDeliveryToChecksS = -1;
    let lastDeliveryToCommentsS = -1;
    const progress = setInterval(() => {
      process.stderr.write(
        `app bench: ${scenario.checksCompleted()}/${pulls.length} final checks, ${scenario.commentsUpToDate()} comments up to date\n`,
      );
      const missing = process.env.TANDEM_BENCH_LOG ? scenario.firstMissing() : undefined;
      if (missing) process.stderr.write(`  ${missing}\n`);
    }, 10_000);
    await until(checksDone, 900_000, 'every final head completed', 250).catch(() => {});
    if (checksDone()) lastDeliveryToChecksS = Math.round((performance.now() - lastDeliveryAt) / 100) / 10;
    await until(commentsDone, 900_000, 'every comment up to date', 250).catch(() => {});
    if (commentsDone()) lastDeliveryToCommentsS = Math.round((performance.now() - lastDeliveryAt) / 100) / 10;
    await firstCompletion;
    db.close();
    clearInterval(sampler);
    clearInterval(progress);

    const sorted = latencies.sort((a, b) => a - b);
    return {
      sets,
      pulls: pulls.length,
      deliveries: bursts.reduce((n, b) => n + b.length, 0),
      parallel,
      loadAvg: Math.round(loadavg()[0]! * 100) / 100,
      p50Ms: percentile(sorted, 50),
      p99Ms: percentile(sorted, 99),
      idleRssMb,
      maxRssMb,
      lastDeliveryToChecksS,
      lastDeliveryToCommentsS,
      killToListeningMs,
      killToFirstCompletedMs,
      ...scenario.outcome(),
      secondaryLimited: standIn.secondaryLimited,
    };
  } finally {
    child?.kill('SIGTERM');
    await standIn.close();
    await rm(dir, { recursive: true, force: true });
  }
}

// `npx tsx perf/app-bench.ts [sets]`: one run, its figures as one JSON line.
if (import.meta.url === `file://${process.argv[1]}`) {
  const sets = Number(process.argv[2] ?? 100);
  console.log(JSON.stringify(await runAppBench({ sets })));
}
