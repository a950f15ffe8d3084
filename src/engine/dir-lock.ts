/**
 * A cross-process lock over a cache folder: `mkdir <target>.lock` is atomic on every local
 * filesystem. Used for mirrors, repository states and prepared dependencies.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import path from 'node:path';
import { InfraError } from '../core/errors.ts';

interface LockOwner {
  pid: number;
  host: string;
}

export interface DirLockOptions {
  /** A lock not refreshed for this long is taken to be abandoned. */
  staleMs?: number;
  /** How long to wait for another holder. */
  timeoutMs?: number;
  /** The error thrown when waiting runs past `timeoutMs`. */
  timeoutError?: (lock: string) => Error;
}

/**
 * Runs `fn` holding `<target>.lock`, shared by every process using the same cache. The holder
 * refreshes the lock while it works, so only abandoned locks (dead owner, or not refreshed for
 * `staleMs`) are broken.
 */
export async function withDirLock<T>(
  target: string,
  fn: () => Promise<T>,
  opts: DirLockOptions = {},
): Promise<T> {
  const lock = `${target}.lock`;
  const staleMs = opts.staleMs ?? 10 * 60_000;
  const deadline = Date.now() + (opts.timeoutMs ?? 60 * 60_000);
  await mkdir(path.dirname(lock), { recursive: true });
  let delay = 25;
  for (;;) {
    try {
      await mkdir(lock);
      break;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      if (await isStale(lock, staleMs)) {
        // Rename first so two waiters that both saw it stale do not both delete a fresh lock.
        const tomb = `${lock}.stale-${randomBytes(4).toString('hex')}`;
        await rename(lock, tomb).then(
          () => rm(tomb, { recursive: true, force: true }),
          () => undefined,
        );
        continue;
      }
      if (Date.now() > deadline) {
        throw opts.timeoutError?.(lock) ?? new InfraError('engine', `timed out waiting for the lock ${lock}`);
      }
      await new Promise((r) => setTimeout(r, delay + Math.random() * delay));
      delay = Math.min(delay * 2, 1000);
    }
  }
  const owner: LockOwner = { pid: process.pid, host: hostname() };
  await writeFile(path.join(lock, 'owner'), JSON.stringify(owner));
  // Heartbeat: a long clone keeps its lock fresh, so only abandoned locks go stale.
  const beat = setInterval(
    () => {
      const now = new Date();
      utimes(lock, now, now).catch(() => undefined);
    },
    Math.max(1000, staleMs / 4),
  );
  beat.unref();
  try {
    return await fn();
  } finally {
    clearInterval(beat);
    await rm(lock, { recursive: true, force: true });
  }
}

async function isStale(lock: string, staleMs: number): Promise<boolean> {
  const info = await stat(lock).catch(() => undefined);
  if (!info) return false; // released meanwhile; the next mkdir will tell
  const owner = await readFile(path.join(lock, 'owner'), 'utf8')
    .then((t) => JSON.parse(t) as LockOwner)
    .catch(() => undefined);
  if (owner && owner.host === hostname() && owner.pid !== process.pid && !isAlive(owner.pid)) return true;
  return Date.now() - info.mtimeMs > staleMs;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}
