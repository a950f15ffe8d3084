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
import { type ChildProcess, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { appKeys } from '../test/support/app-keys.ts';
import { startGitHubStandIn } from '../test/support/github-standin/index.ts';
import { createWebhookSender } from '../test/support/webhook-sender.ts';

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
  /** Requests the stand-in refused with its simulated secondary limit. */
  secondaryLimited: number;
}

const SECRET = 'bench-secret';
const REPOS = ['a', 'b', 'c'] as const;
const MARKER = '<!-- tandem:linked-change -->';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });
}

function rssMb(pid: number | undefined): number {
  try {
    const kb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
    return Math.round((kb / 1024) * 10) / 10;
  } catch {
    return 0; // between the kill and the restart
  }
}

function percentile(sorted: number[], p: number): number {
  const i = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return Math.round(sorted[Math.max(0, i)]! * 10) / 10;
}

async function until(pred: () => boolean, ms: number, what: string): Promise<void> {
  const end = Date.now() + ms;
  while (!pred()) {
    if (Date.now() > end) throw new Error(`app bench: timed out waiting for ${what}`);
    await sleep(50);
  }
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
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    APP_ID: String(standIn.appId),
    PRIVATE_KEY: appKeys().privateKeyPem,
    WEBHOOK_SECRET: SECRET,
    GHE_HOST: standIn.host,
    GHE_PROTOCOL: 'http',
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: (process.env.TANDEM_BENCH_LOG ?? 'error') as NodeJS.ProcessEnv['LOG_LEVEL'],
    NODE_ENV: 'production',
    TANDEM_DATA_DIR: join(dir, 'data'),
    TANDEM_DEBOUNCE_MS: '2000',
    TANDEM_CONCURRENCY: '4',
  };
  let child: ChildProcess | undefined;
  const start = async (): Promise<void> => {
    child = spawn(process.execPath, ['--import', 'tsx', 'test/support/app-process.ts'], {
      env,
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    const end = Date.now() + 60_000;
    while (
      !(await fetch(`${url}/ping`).then(
        (r) => r.ok,
        () => false,
      ))
    ) {
      if (Date.now() > end) throw new Error('app bench: the App did not listen');
      await sleep(20);
    }
  };
  try {
    for (const name of [...REPOS, '.github']) standIn.addRepo({ owner: 'acme', name });
    standIn.addRepo({ owner: 'acme', name: 'suites', private: true });
    for (const r of REPOS) standIn.setPermission('acme', r, 'octocat', 'write');
    standIn.setFile(
      'acme',
      '.github',
      '.github/tandem.yml',
      'evaluator: acme/suites\nsuites:\n  - name: s\n    repos: [acme/a, acme/b, acme/c]\n    path: s/suite.yml\nmatrix: leave-one-out\n',
    );
    standIn.setFile(
      'acme',
      'suites',
      's/suite.yml',
      'name: s\nimage: tandem/sandbox:node20\ntests:\n  - name: t\n    files: [hidden/t.js]\n    run: node t.js\n    results: { format: junit, path: t.xml }\n',
    );
    standIn.setFile('acme', 'suites', 's/hidden/t.js', 'test\n');

    // Set i: a#i+1 and b#i+1, and c#… for every other set (100 sets, 250 PRs), linked both ways.
    let shaSeq = 0;
    const sha = () => createHash('sha1').update(`bench ${++shaSeq}`).digest('hex');
    const pulls: Array<{ repo: string; number: number }> = [];
    let cNumber = 0;
    for (let i = 0; i < sets; i++) {
      const members = [
        { repo: 'a', number: i + 1 },
        { repo: 'b', number: i + 1 },
        ...(i % 2 === 0 ? [{ repo: 'c', number: ++cNumber }] : []),
      ];
      for (const m of members) {
        const others = members.filter((o) => o !== m).map((o) => `Depends-On: acme/${o.repo}#${o.number}`);
        standIn.addPullRequest({
          owner: 'acme',
          repo: m.repo,
          number: m.number,
          title: `set ${i}`,
          body: others.join('\n'),
          headRef: `set-${i}`,
          headSha: sha(),
          baseSha: 'f'.repeat(40),
        });
        pulls.push(m);
      }
    }

    await start();
    await sleep(500);
    const idleRssMb = rssMb(child?.pid);
    let maxRssMb = idleRssMb;
    const sampler = setInterval(() => {
      maxRssMb = Math.max(maxRssMb, rssMb(child?.pid));
    }, 200);

    const sender = createWebhookSender({ url: `${url}/api/github/webhooks`, secret: SECRET });
    const installationId = standIn.installationId('acme');
    const pr = (p: { repo: string; number: number }) =>
      standIn.pullRequest('acme', p.repo, p.number) as unknown as Json;
    const repository = (p: { repo: string }) => standIn.repository('acme', p.repo) as unknown as Json;
    const opened = (p: (typeof pulls)[number]) => () =>
      sender.pullRequest('opened', { pullRequest: pr(p), repository: repository(p), installationId });
    const pushed = (p: (typeof pulls)[number]) => {
      let head: string | undefined;
      return () => {
        head ??= sha();
        standIn.updatePullRequest('acme', p.repo, p.number, { headSha: head });
        return sender.pullRequest('synchronize', {
          pullRequest: pr(p),
          repository: repository(p),
          installationId,
        });
      };
    };
    const edited = (p: (typeof pulls)[number]) => () =>
      sender.pullRequest('edited', {
        pullRequest: pr(p),
        repository: repository(p),
        installationId,
        changes: { body: { from: '' } },
      });
    const rerun = (p: (typeof pulls)[number]) => {
      let comment: Json | undefined;
      return () => {
        comment ??= standIn.addComment('acme', p.repo, p.number, {
          body: '/tandem run',
          user: 'octocat',
        }) as unknown as Json;
        return sender.issueCommentCreated({
          pullRequest: pr(p),
          repository: repository(p),
          comment,
          installationId,
        });
      };
    };
    const bursts = [pulls.map(opened), pulls.map(pushed), pulls.map(edited), pulls.map(rerun)];

    const latencies: number[] = [];
    let killAt = 0;
    let killToListeningMs = 0;
    let killCursor = 0;
    let restarting: Promise<void> | undefined;
    const deliver = async (send: () => Promise<{ status: number }>) => {
      for (;;) {
        const t = performance.now();
        const res = await send().catch(() => undefined);
        if (res && res.status < 300) {
          latencies.push(performance.now() - t);
          return;
        }
        // Refused while the App is down: GitHub delivers again later.
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
    const checksOf = (p: (typeof pulls)[number], head: string) =>
      standIn.checkRuns('acme', p.repo, head).filter((c) => c.name === 'Tandem');
    const headOf = (p: (typeof pulls)[number]) => (pr(p).head as Json).sha as string;
    const stickies = (p: (typeof pulls)[number]) =>
      standIn.comments('acme', p.repo, p.number).filter((c) => c.body?.includes(MARKER));
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
    const checksDone = () =>
      unfinished() === 0 && pulls.every((p) => checksOf(p, headOf(p)).some((c) => c.status === 'completed'));
    const commentsDone = () =>
      pulls.every((p) => stickies(p).some((c) => c.body?.includes(headOf(p).slice(0, 7))));
    let lastDeliveryToChecksS = -1;
    let lastDeliveryToCommentsS = -1;
    const progress = setInterval(() => {
      const checks = pulls.filter((p) => checksOf(p, headOf(p)).some((c) => c.status === 'completed')).length;
      const comments = pulls.filter((p) =>
        stickies(p).some((c) => c.body?.includes(headOf(p).slice(0, 7))),
      ).length;
      process.stderr.write(
        `app bench: ${checks}/${pulls.length} final checks, ${comments} comments up to date\n`,
      );
      if (process.env.TANDEM_BENCH_LOG) {
        const p = pulls.find((x) => !checksOf(x, headOf(x)).some((c) => c.status === 'completed'));
        if (p)
          process.stderr.write(
            `  ${p.repo}#${p.number} ${headOf(p)}: ${JSON.stringify(standIn.checkRuns('acme', p.repo).map((c) => [c.head_sha.slice(-4), c.status, c.conclusion]))}\n`,
          );
      }
    }, 10_000);
    await until(checksDone, 900_000, 'every final head completed').catch(() => {});
    if (checksDone()) lastDeliveryToChecksS = Math.round((performance.now() - lastDeliveryAt) / 100) / 10;
    await until(commentsDone, 900_000, 'every comment up to date').catch(() => {});
    if (commentsDone()) lastDeliveryToCommentsS = Math.round((performance.now() - lastDeliveryAt) / 100) / 10;
    await firstCompletion;
    db.close();
    clearInterval(sampler);
    clearInterval(progress);

    const all = REPOS.flatMap((r) =>
      standIn
        .checkRuns('acme', r)
        .filter((c) => c.name === 'Tandem')
        .map((c) => ({ ...c, key: `${r}@${c.head_sha}` })),
    );
    const perHead = new Map<string, number>();
    for (const c of all) perHead.set(c.key, (perHead.get(c.key) ?? 0) + 1);
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
      lost: {
        checks: pulls.filter((p) => !checksOf(p, headOf(p)).some((c) => c.status === 'completed')).length,
        comments: pulls.filter((p) => !stickies(p).some((c) => c.body?.includes(headOf(p).slice(0, 7))))
          .length,
      },
      duplicated: {
        checks: [...perHead.values()].filter((n) => n > 1).length,
        comments: pulls.filter((p) => stickies(p).length > 1).length,
      },
      orphaned: { checks: all.filter((c) => c.status !== 'completed').length },
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
