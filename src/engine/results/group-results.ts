/**
 * A results folder per test group, so a group's verdict is its own. Right before a group's step
 * the host makes a fresh, empty folder (an unguessable name, inside the configuration's results
 * folder, which steps can cross but not list or write) and the step gets it as $TANDEM_RESULTS;
 * right after the step the host moves it out of every mount and reads the result file from
 * there (result-file.ts: no link followed, size-capped, a deadline), then deletes it. A file an
 * earlier group (or setup) left anywhere never counts: nothing existed before the step started.
 */
import { randomBytes } from 'node:crypto';
import { chmod, mkdir, rename } from 'node:fs/promises';
import path from 'node:path';
import { removeTree } from '../fs-util.ts';
import { giveToStepUser } from '../sandbox/step-user.ts';
import { defaultResultFileLimits, type ResultFileRead, readResultFile } from './result-file.ts';

export class GroupResults {
  private taken = 0;

  /**
   * `root`: the configuration's results folder (mounted, or used as is by the process sandbox);
   * `outside`: a folder of the same file system that no sandbox sees, for the take-out.
   */
  constructor(
    private readonly root: string,
    private readonly outside: string,
  ) {}

  /** Steps may cross the root (to their own folder) but neither list nor write it. */
  static async create(root: string, outside: string): Promise<GroupResults> {
    await mkdir(root, { recursive: true });
    await chmod(root, 0o711);
    await mkdir(outside, { recursive: true });
    await chmod(outside, 0o700);
    return new GroupResults(root, outside);
  }

  /** A name for one step's folder, chosen ahead (its exec may be registered before it runs). */
  static folderName(index: number): string {
    return `group-${index}-${randomBytes(12).toString('hex')}`;
  }

  /** Runs `step` with a fresh folder `name` made right before it; returns what it left as `resultsPath`. */
  async during<T>(
    name: string,
    resultsPath: string | undefined,
    step: () => Promise<T>,
  ): Promise<{ value: T; resultFile?: ResultFileRead }> {
    const dir = path.join(this.root, name);
    // Fails if anything is there already: the folder is new or the step does not run.
    await mkdir(dir);
    await giveToStepUser(dir);
    let value: T;
    try {
      value = await step();
    } catch (err) {
      await removeTree(dir);
      throw err;
    }
    const out = path.join(this.outside, `taken-${this.taken++}`);
    await rename(dir, out);
    try {
      const resultFile = resultsPath
        ? await readResultFile(out, resultsPath, defaultResultFileLimits())
        : undefined;
      return { value, ...(resultFile ? { resultFile } : {}) };
    } finally {
      await removeTree(out);
    }
  }
}
