/**
 * The App's store answers asynchronously (issue 27: PostgreSQL behind the same interface), so
 * every call of it outside `src/app/store` is awaited, nothing reads the SQLite handle around it,
 * and no promise in the App is dropped (a rejection nobody hears, or a promise tested as a
 * boolean). Read with the compiler's checker (`test/helpers/promise-handling.ts`).
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  floatingPromises,
  projectFiles,
  projectProgram,
  unawaitedStoreCalls,
} from '../helpers/promise-handling.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

describe('the App and its asynchronous store', () => {
  const files = projectFiles(ROOT, ['src'], () => false);
  const program = projectProgram(ROOT, files);

  it('awaits every store call outside the store, and never reaches for its database handle', () => {
    expect(unawaitedStoreCalls(ROOT, program)).toEqual([]);
  });

  it('drops no promise in the App', () => {
    const app = new Set(
      files.filter((f) => f.includes(`${path.sep}src${path.sep}app${path.sep}`)).map((f) => path.resolve(f)),
    );
    expect(floatingPromises(ROOT, program, app)).toEqual([]);
  });
});
