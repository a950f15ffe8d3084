/**
 * A fresh HOME and TMPDIR for each test group (and one pair for setup), so nothing PR code leaves
 * there — a Python `.pth` startup hook under ~/.local, a `~/.npmrc` with `node-options`, a
 * `~/.node_modules` package, a build cache — reaches a later group. The host makes the pair
 * right before the step, in a folder steps can cross but neither list nor write, under a name
 * chosen ahead (its exec may be registered before it runs) that no earlier step can know. The
 * folders stay until the configuration's folder is removed, after its container is gone: no
 * host-side walk of a tree PR code may still be changing.
 */

import { randomBytes } from 'node:crypto';
import { chmod, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { giveToStepUser } from './step-user.ts';
import { toolCacheEnv } from './tool-cache-env.ts';

export class StepScratch {
  private constructor(private readonly root: string) {}

  /** `root`: a host folder private to the configuration (made here). */
  static async create(root: string): Promise<StepScratch> {
    await mkdir(root, { recursive: true });
    await chmod(root, 0o711);
    return new StepScratch(root);
  }

  /** A name for one step's pair, chosen ahead: `setup`, or `group-<index>`, then 24 hex digits. */
  static folderName(label: string): string {
    return `${label}-${randomBytes(12).toString('hex')}`;
  }

  /** Makes `name` with an empty `home` and `tmp` of the step user's; fails if it exists. */
  async make(name: string): Promise<void> {
    const dir = path.join(this.root, name);
    await mkdir(dir);
    await chmod(dir, 0o711);
    for (const sub of ['home', 'tmp']) {
      const own = path.join(dir, sub);
      await mkdir(own, { mode: 0o700 });
      await giveToStepUser(own);
    }
  }
}

/** HOME and TMPDIR of the pair `name`, as seen where the scratch root is `root`. */
export function scratchEnv(root: string, name: string): string[] {
  const home = `${root}/${name}/home`;
  // Tool caches (Go, XDG, pytest) live under the step's own HOME too: a cache is state that an
  // earlier group's PR code could otherwise leave for a later one.
  return [`HOME=${home}`, `TMPDIR=${root}/${name}/tmp`, ...toolCacheEnv(home)];
}
