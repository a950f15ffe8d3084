/**
 * What the App benches do to App processes from outside: pick a port, start
 * `test/support/app-process.ts` (the real server, stub executor) with an environment and wait until
 * it answers `/ping`, read its RSS, and watch for a condition (the benchmark observing GitHub and
 * the database as a user would; no test waits on these polls).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, openSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { appKeys } from '../test/support/app-keys.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });
}

export function rssMb(pid: number | undefined): number {
  try {
    const kb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
    return Math.round((kb / 1024) * 10) / 10;
  } catch {
    return 0; // between a kill and the restart
  }
}

export function percentile(sorted: number[], p: number): number {
  const i = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return Math.round(sorted[Math.max(0, i)]! * 10) / 10;
}

/** Resolves once `pred` holds (checked every 50 ms); rejects after `ms`. */
/** `everyMs`: how often `pred` is asked (a costly one less often: the stand-in shares this thread). */
export async function until(
  pred: () => boolean | Promise<boolean>,
  ms: number,
  what: string,
  everyMs = 50,
): Promise<void> {
  const end = Date.now() + ms;
  while (!(await pred())) {
    if (Date.now() > end) throw new Error(`app bench: timed out waiting for ${what}`);
    await sleep(everyMs);
  }
}

/** The webhook secret the benches' Apps and senders share. */
export const BENCH_SECRET = 'bench-secret';

/**
 * The environment of a bench App process on `port` against the stand-in: production mode, logs at
 * `TANDEM_BENCH_LOG` (default error), a 2 s debounce and 4 evaluations at once; `extra` adds to it.
 */
export function benchAppEnv(
  standIn: { appId: number; host: string },
  port: number,
  dataDir: string,
  extra: NodeJS.ProcessEnv = {},
): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    APP_ID: String(standIn.appId),
    PRIVATE_KEY: appKeys().privateKeyPem,
    WEBHOOK_SECRET: BENCH_SECRET,
    GHE_HOST: standIn.host,
    GHE_PROTOCOL: 'http',
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: (process.env.TANDEM_BENCH_LOG ?? 'error') as NodeJS.ProcessEnv['LOG_LEVEL'],
    NODE_ENV: 'production',
    TANDEM_DATA_DIR: dataDir,
    TANDEM_DEBOUNCE_MS: '2000',
    TANDEM_CONCURRENCY: '4',
    // Kept logs are JSON lines (with times), to be read by a script.
    ...(process.env.TANDEM_BENCH_LOG_DIR ? { LOG_FORMAT: 'json' } : {}),
    ...extra,
  };
}

function logFile(env: NodeJS.ProcessEnv): 'ignore' | number {
  const dir = process.env.TANDEM_BENCH_LOG_DIR;
  if (!dir) return 'ignore';
  mkdirSync(dir, { recursive: true });
  return openSync(path.join(dir, `app-${env.PORT}.log`), 'a');
}

/** The App as its own process on `url`'s port, answering `/ping`. */
export async function startAppProcess(env: NodeJS.ProcessEnv, url: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'test/support/app-process.ts')], {
    cwd: ROOT,
    env,
    // TANDEM_BENCH_LOG_DIR: each App's log lines (TANDEM_BENCH_LOG sets their level) in a file of
    // that folder named by its port, to see afterwards where a run's time went.
    stdio: ['ignore', logFile(env), 'inherit'],
  });
  let exited = false;
  child.once('exit', () => {
    exited = true;
  });
  const end = Date.now() + 60_000;
  while (
    !(await fetch(`${url}/ping`).then(
      (r) => r.ok,
      () => false,
    ))
  ) {
    if (exited) throw new Error(`app bench: the App on ${url} exited before listening`);
    if (Date.now() > end) throw new Error(`app bench: the App on ${url} did not listen`);
    await sleep(20);
  }
  return child;
}
