/**
 * Per-step hidden files for the Docker sandbox. A configuration's container mounts one empty
 * host folder (the stage) read-only at $TANDEM_HIDDEN; before a test group's step the host copies
 * that group's hidden files into it and empties it after, so a group sees only its own files and
 * setup sees none. The stage folder itself is never replaced (a bind mount holds its inode), only
 * its entries. The Docker sandbox kills what a test step leaves running before the next group;
 * what setup starts keeps running (services), so a process started by setup could still read a
 * group's files while that group runs: SECURITY.md says so.
 */
import { cp, mkdtemp, readdir, rm } from 'node:fs/promises';
import path from 'node:path';

const COPY = { recursive: true, verbatimSymlinks: true, preserveTimestamps: true } as const;

export class HiddenStage {
  private constructor(readonly dir: string) {}

  /** An empty stage folder inside `parent` (a folder private to the configuration). */
  static async create(parent: string): Promise<HiddenStage> {
    return new HiddenStage(await mkdtemp(path.join(parent, 'hidden-stage-')));
  }

  /** Runs `step` with `hiddenDir`'s files (none when undefined) in the stage, then empties it. */
  async during<T>(hiddenDir: string | undefined, step: () => Promise<T>): Promise<T> {
    await this.clear();
    // The folder's entries (dotfiles too), links kept as links. In-process: a group's hidden
    // files are few, and spawning `cp` would cost more than copying them (this is on the run's
    // critical path, once per group).
    if (hiddenDir) await cp(hiddenDir, this.dir, COPY);
    try {
      return await step();
    } finally {
      await this.clear();
    }
  }

  async remove(): Promise<void> {
    await rm(this.dir, { recursive: true, force: true });
  }

  private async clear(): Promise<void> {
    const entries = await readdir(this.dir);
    await Promise.all(entries.map((e) => rm(path.join(this.dir, e), { recursive: true, force: true })));
  }
}
