/**
 * App scenario for `npm run bench`: 200 signed `pull_request.opened` deliveries against the local
 * GitHub stand-in; reports p50/p99 time from sending a delivery to the stand-in recording the
 * `queued` Tandem check run, and the App's resident memory when idle and right after the load.
 *
 * The App runs as its own process, as `npm start` runs it (`node build/app/main.js`, compiled
 * first), so its memory is measured alone and without a TypeScript loader. The debounce is set far beyond the run, so no evaluation starts: this measures the
 * webhook path (verify, record, enqueue, queued check run), not the engine.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { appKeys } from '../test/support/app-keys.ts';
import { startGitHubStandIn } from '../test/support/github-standin/index.ts';
import { createWebhookSender } from '../test/support/webhook-sender.ts';

export interface AppBenchResult {
  deliveries: number;
  /** Deliveries in flight at once. */
  parallel: number;
  /** 1-minute load average when the run ended: other work on the host skews the figures. */
  loadAvg: number;
  p50Ms: number;
  p99Ms: number;
  idleRssMb: number;
  loadRssMb: number;
}

const SECRET = 'bench-secret';

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

function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return Math.round((kb / 1024) * 10) / 10;
}

function percentile(sorted: number[], p: number): number {
  const i = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return Math.round(sorted[Math.max(0, i)]! * 10) / 10;
}

async function waitFor(pred: () => boolean | Promise<boolean>, ms: number, what: string): Promise<void> {
  const end = Date.now() + ms;
  while (!(await pred())) {
    if (Date.now() > end) throw new Error(`app bench: timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

export async function runAppBench(
  opts: { deliveries?: number; concurrency?: number } = {},
): Promise<AppBenchResult> {
  const n = opts.deliveries ?? 200;
  // Deliveries in flight at once; 1 = one after another, as a single hook delivers a steady stream.
  const parallel = opts.concurrency ?? 1;
  const dir = await mkdtemp(join(tmpdir(), 'tandem-app-bench-'));
  const standIn = await startGitHubStandIn();
  let child: ChildProcess | undefined;
  const logLevel = process.env.TANDEM_BENCH_LOG as NodeJS.ProcessEnv['LOG_LEVEL'];
  try {
    standIn.addRepo({ owner: 'acme', name: 'api' });
    standIn.addRepo({ owner: 'acme', name: '.github' });
    standIn.setFile(
      'acme',
      '.github',
      '.github/tandem.yml',
      'evaluator: acme/suites\nsuites:\n  - name: s\n    repos: [acme/api]\n    path: s/suite.yml\n',
    );
    const queuedAt = new Map<string, number>();
    // Record the moment the stand-in stores each check run (in process: no polling error).
    const list = standIn.state.checkRunList;
    const push = list.push.bind(list);
    list.push = (...items) => {
      for (const c of items) if (!queuedAt.has(c.headSha)) queuedAt.set(c.headSha, performance.now());
      return push(...items);
    };

    const port = await freePort();
    // The compiled App, as `npm start` runs it (transpiled here if the sources are newer).
    execFileSync(process.execPath, ['scripts/build-cli.js', '--no-check'], { stdio: 'inherit' });
    const proc = spawn(process.execPath, ['build/app/main.js'], {
      env: {
        PATH: process.env.PATH,
        APP_ID: String(standIn.appId),
        PRIVATE_KEY: appKeys().privateKeyPem,
        WEBHOOK_SECRET: SECRET,
        GHE_HOST: standIn.host,
        GHE_PROTOCOL: 'http',
        PORT: String(port),
        HOST: '127.0.0.1',
        LOG_LEVEL: logLevel ?? 'error',
        NODE_ENV: 'production',
        TANDEM_DATA_DIR: join(dir, 'data'),
        TANDEM_DEBOUNCE_MS: '3600000',
      },
      stdio: ['ignore', logLevel ? 'inherit' : 'ignore', 'inherit'],
    });
    child = proc;
    const url = `http://127.0.0.1:${port}`;
    await waitFor(
      () =>
        fetch(`${url}/ping`)
          .then((r) => r.ok)
          .catch(() => false),
      30_000,
      'the App to listen',
    );
    await new Promise((r) => setTimeout(r, 500));
    const pid = proc.pid!;
    const idleRssMb = rssMb(pid);

    const sender = createWebhookSender({ url: `${url}/api/github/webhooks`, secret: SECRET });
    const repository = standIn.repository('acme', 'api') as unknown as Record<string, unknown>;
    const installationId = standIn.installationId('acme');
    const sentAt = new Map<string, number>();
    const prs = Array.from({ length: n }, (_, i) => {
      const sha = (i + 1).toString(16).padStart(40, '0');
      return standIn.addPullRequest({
        owner: 'acme',
        repo: 'api',
        title: `change ${i}`,
        headRef: `b${i}`,
        headSha: sha,
        baseSha: 'f'.repeat(40),
      });
    });
    let next = 0;
    const worker = async () => {
      while (next < prs.length) {
        const pr = prs[next++]!;
        sentAt.set(pr.head.sha, performance.now());
        const res = await sender.pullRequest('opened', {
          pullRequest: pr as unknown as Record<string, unknown>,
          repository,
          installationId,
        });
        if (res.status >= 300) throw new Error(`app bench: delivery answered ${res.status}`);
      }
    };
    await Promise.all(Array.from({ length: parallel }, worker));
    await waitFor(() => queuedAt.size >= n, 60_000, 'every queued check run').catch((e) => {
      const seen = standIn.requests.map((r) => `${r.method} ${r.path} ${r.status}`);
      throw new Error(
        `${(e as Error).message}: ${queuedAt.size}/${n} queued; App requests: ${[...new Set(seen)].join(', ')}`,
      );
    });
    const loadRssMb = rssMb(pid);
    const latencies = [...sentAt].map(([sha, t]) => queuedAt.get(sha)! - t).sort((a, b) => a - b);
    return {
      deliveries: n,
      parallel,
      loadAvg: Math.round(loadavg()[0]! * 100) / 100,
      p50Ms: percentile(latencies, 50),
      p99Ms: percentile(latencies, 99),
      idleRssMb,
      loadRssMb,
    };
  } finally {
    child?.kill('SIGTERM');
    await standIn.close();
    await rm(dir, { recursive: true, force: true });
  }
}

// `npx tsx perf/app-bench.ts [parallel…]`: one run per figure (default: 1, then 10 in flight).
if (import.meta.url === `file://${process.argv[1]}`) {
  const runs = process.argv.slice(2).map(Number);
  for (const concurrency of runs.length > 0 ? runs : [1, 10]) {
    console.log(JSON.stringify(await runAppBench({ concurrency })));
  }
}
