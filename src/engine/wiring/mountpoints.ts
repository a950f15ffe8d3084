/**
 * Mount points for wiring links. A bind mount needs an existing folder to land on, and inside a
 * read-only prepared folder nothing can create one at run time, so the prepare leaves it (an
 * empty folder where a wired package goes). Folders on the way that are links or files (an
 * install's `file:` symlink, a PR's committed link) are replaced, never followed: what is made
 * stays inside `root`.
 */
import { lstat, mkdir, rm } from 'node:fs/promises';
import path from 'node:path';

/** Makes `rel` (relative, `/`-separated) a real folder under `root`, component by component. */
export async function ensureMountpoint(root: string, rel: string): Promise<void> {
  let at = path.resolve(root);
  for (const part of rel.split('/').filter((p) => p !== '' && p !== '.')) {
    if (part === '..') throw new Error(`mount point "${rel}" climbs out of its folder`);
    at = path.join(at, part);
    const st = await lstat(at).catch(() => null);
    if (st?.isDirectory()) continue;
    if (st) await rm(at, { force: true });
    await mkdir(at);
  }
}

/** Relative `/`-paths: is `child` strictly under `parent`? */
export function isUnder(parent: string, child: string): boolean {
  return child.startsWith(`${parent.replace(/\/+$/, '')}/`);
}

/**
 * Leaves the mount points (relative to the repository) that lie inside a prepared output in
 * the prepared folder `dir` (whose outputs sit at `<dir>/<output>`).
 */
export async function prepareMountpoints(
  dir: string,
  outputs: string[],
  mountpoints: string[],
): Promise<void> {
  for (const mp of mountpoints) {
    const output = outputs.find((o) => isUnder(o, mp));
    if (output)
      await ensureMountpoint(path.join(dir, output), mp.slice(output.replace(/\/+$/, '').length + 1));
  }
}
