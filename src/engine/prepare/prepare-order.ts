/**
 * The order base-state prepares take the run slots in: the largest expected install first
 * (longest-processing-time scheduling). Every configuration needs every repository's state, so
 * the first configuration waits for the slowest base install; started last behind smaller ones it
 * lengthens the critical path by their time (measured on the real eslint case, perf/README.md:
 * eslint's 61 s install waited 16 s behind eslint-visitor-keys'). The estimate of an install's work
 * is the size of the prepare's `key_files` (package.json and lockfiles, requirements, go.sum grow
 * with the dependencies); without key files the given order stays.
 */
import { lstat } from 'node:fs/promises';
import path from 'node:path';
import { assertConfined } from '../confined-path.ts';

/** Bytes of the key files in a base state's folder (missing, escaping or non-regular files count 0). */
export async function keyFilesBytes(stateDir: string, keyFiles: readonly string[]): Promise<number> {
  let total = 0;
  for (const rel of keyFiles) {
    const file = path.resolve(stateDir, rel);
    // Only a regular file reached without links counts: what the tree itself holds.
    const confined = await assertConfined(stateDir, file, 'file', rel).then(
      () => true,
      () => false,
    );
    if (confined) total += (await lstat(file)).size;
  }
  return total;
}

/** `items` by decreasing estimate; equal estimates keep their given order (a stable sort). */
export async function largestFirst<T>(
  items: readonly T[],
  estimate: (item: T) => Promise<number>,
): Promise<T[]> {
  const sized = await Promise.all(items.map(async (item, i) => ({ item, i, size: await estimate(item) })));
  return sized.sort((a, b) => b.size - a.size || a.i - b.i).map((x) => x.item);
}
