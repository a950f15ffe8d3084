/**
 * Real `tandem worker` processes (bin/tandem.js) on a test's own database, each leading its own
 * process group (so a signal reaches the worker and everything it started), with their log lines
 * kept and waited on as events.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const BIN = path.join(ROOT, 'bin/tandem.js');

export interface WorkerProcess {
  hostId: string;
  child: ChildProcess;
  lines: string[];
  /** Resolves with the first line (logged so far or later) that matches. */
  line(match: (l: string) => boolean): Promise<string>;
  /** Sends `signal` to the worker's whole process group. */
  signal(signal: NodeJS.Signals): void;
  /** SIGKILLs the group; resolves once the worker exited. */
  kill(): Promise<void>;
}

export function startWorker(opts: {
  databaseUrl: string;
  hostId: string;
  cacheDir: string;
  sandbox: 'docker' | 'process';
  env?: Record<string, string>;
}): WorkerProcess {
  const child = spawn(
    process.execPath,
    [BIN, 'worker', '--database-url', opts.databaseUrl, '--host-id', opts.hostId, '--sandbox', opts.sandbox],
    {
      detached: true,
      stdio: ['ignore', 'ignore', 'pipe'],
      env: {
        ...process.env,
        ...(opts.sandbox === 'process' ? { TANDEM_ALLOW_PROCESS_SANDBOX: '1' } : {}),
        TANDEM_CACHE_DIR: opts.cacheDir,
        ...opts.env,
      },
    },
  );
  const lines: string[] = [];
  const waiters: Array<{ match: (l: string) => boolean; resolve: (l: string) => void }> = [];
  let rest = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    const parts = (rest + chunk.toString()).split('\n');
    rest = parts.pop() ?? '';
    for (const l of parts) {
      lines.push(l);
      for (const w of [...waiters])
        if (w.match(l)) {
          waiters.splice(waiters.indexOf(w), 1);
          w.resolve(l);
        }
    }
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const signal = (s: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) process.kill(-child.pid!, s);
  };
  return {
    hostId: opts.hostId,
    child,
    lines,
    line: (match) =>
      new Promise((resolve) => {
        const seen = lines.find(match);
        if (seen !== undefined) resolve(seen);
        else waiters.push({ match, resolve });
      }),
    signal,
    kill: async () => {
      signal('SIGCONT');
      signal('SIGKILL');
      await exited;
    },
  };
}
