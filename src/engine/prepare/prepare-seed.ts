/**
 * A head state's prepare starts from a copy of its base state's prepared output, so an install
 * that changed one dependency does a small incremental install instead of a full one. The copy
 * is copy-on-write where the file system can (`--reflink=auto`), else a real copy; never hard
 * links: the head's install scripts are PR code, and writing through a shared inode would change
 * base's prepared folder.
 */
import { execFile } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { assertConfined } from '../confined-path.ts';
import { present } from '../fs-util.ts';

const run = promisify(execFile);

/** Copies each output of the prepared folder `seedDir` into `repoDir` where the tree has none. */
export async function seedOutputs(
  seedDir: string,
  repoDir: string,
  outputs: readonly string[],
): Promise<number> {
  let seeded = 0;
  for (const o of outputs) {
    const src = path.join(seedDir, o);
    const dst = path.join(repoDir, o);
    // Only a real folder of the cache is copied; a tree that has the folder itself keeps it.
    const usable = await assertConfined(seedDir, src, 'directory', o).then(
      () => true,
      () => false,
    );
    if (!usable || (await present(dst))) continue;
    await assertConfined(repoDir, path.dirname(dst), 'directory', path.dirname(o)).catch(async () => {
      await mkdir(path.dirname(dst), { recursive: true });
      await assertConfined(repoDir, path.dirname(dst), 'directory', path.dirname(o));
    });
    await run('cp', ['-a', '--reflink=auto', src, dst]);
    seeded++;
  }
  return seeded;
}
