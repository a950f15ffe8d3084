/**
 * What a test made and must undo (a stand-in to close, a folder to remove, a store to close),
 * registered as it is made and undone after each test, newest first — one afterEach for every
 * file instead of a `let` per resource and a hand-written reset of each.
 */
import { afterAll, afterEach, beforeAll } from 'vitest';
import { makeTempDir, removeTempDir } from './git-fixtures.ts';

/** Registers the undoing after each test; call at the top of a test file (or in a `use…` helper). */
export function useCleanup(): (undo: () => unknown) => void {
  const undos: Array<() => unknown> = [];
  afterEach(async () => {
    for (const undo of undos.splice(0).reverse()) await undo();
  });
  return (undo) => {
    undos.push(undo);
  };
}

/** A new temporary folder, removed after the test. */
export async function cleanTempDir(cleanup: (undo: () => unknown) => void, prefix: string): Promise<string> {
  const dir = await makeTempDir(prefix);
  cleanup(() => removeTempDir(dir));
  return dir;
}

/** A temporary folder made on first ask in a test and removed after it (each test gets its own). */
export function lazyTempDir(cleanup: (undo: () => unknown) => void, prefix: string): () => Promise<string> {
  let dir: Promise<string> | undefined;
  return () => {
    if (!dir) {
      dir = cleanTempDir(cleanup, prefix);
      cleanup(() => {
        dir = undefined;
      });
    }
    return dir;
  };
}

/** A temporary folder for a whole test file: made before its tests, removed after them. */
export function useFileTempDir(prefix: string): () => string {
  let dir: string | undefined;
  beforeAll(async () => {
    dir = await makeTempDir(prefix);
  });
  afterAll(async () => {
    if (dir) await removeTempDir(dir);
  });
  return () => {
    if (!dir) throw new Error(`useFileTempDir(${prefix}): asked for before the file's tests started`);
    return dir;
  };
}
