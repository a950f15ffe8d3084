import { execFile } from 'node:child_process';
import { mkdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/**
 * Copies a folder with `cp -a` (preserves modes, symlinks and hardlinks, and is several times
 * faster than fs.cp on trees of thousands of files). `exclude` names top-level entries to skip.
 */
export async function copyTree(src: string, dst: string, exclude: readonly string[] = []): Promise<void> {
  await mkdir(path.dirname(dst), { recursive: true });
  if (exclude.length === 0) {
    await run('cp', ['-a', src, dst]);
    return;
  }
  await mkdir(dst, { recursive: true });
  const { readdir } = await import('node:fs/promises');
  const entries = (await readdir(src)).filter((e) => !exclude.includes(e));
  if (entries.length > 0) await run('cp', ['-a', ...entries.map((e) => path.join(src, e)), dst]);
}

export async function exists(p: string): Promise<boolean> {
  try {
    await stat(p);
    return true;
  } catch {
    return false;
  }
}

export async function removeTree(p: string): Promise<void> {
  await rm(p, { recursive: true, force: true, maxRetries: 3 });
}

/**
 * A cross-process lock: a directory created atomically. A lock older than `staleMs` is taken
 * to belong to a process that died and is broken.
 */
export async function withDirLock<T>(
  lockDir: string,
  fn: () => Promise<T>,
  staleMs = 30 * 60_000,
): Promise<T> {
  const { mkdir: mk, rmdir } = await import('node:fs/promises');
  await mkdir(path.dirname(lockDir), { recursive: true });
  for (;;) {
    try {
      await mk(lockDir);
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      try {
        const s = await stat(lockDir);
        if (Date.now() - s.mtimeMs > staleMs) await rmdir(lockDir).catch(() => {});
      } catch {
        // Released between our mkdir and stat: try again.
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  try {
    return await fn();
  } finally {
    await rmdir(lockDir).catch(() => {});
  }
}
