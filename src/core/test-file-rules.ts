/**
 * Which files of a repository are tests, per ecosystem: the evaluator owns tests, so a mined
 * change splits into a gold `patch` (everything else) and a `test_patch` (these). Folders under a
 * test folder (fixtures, snapshots, `testdata`) go with the tests because the globs take whole
 * folders. A repository's own configuration adds to the defaults (`test-config-js.ts`,
 * `test-config-python.ts`). Pure.
 */
import { minimatch } from 'minimatch';

const JS_EXT = '{js,mjs,cjs,jsx,ts,mts,cts,tsx}';

/** The default rules, by ecosystem, as globs over repository-relative paths. */
export const TEST_FILE_RULES = {
  javascript: [
    '**/test/**',
    '**/tests/**',
    '**/__tests__/**',
    '**/__mocks__/**',
    '**/__fixtures__/**',
    '**/__snapshots__/**',
    '**/spec/**',
    '**/*.test.*',
    '**/*.spec.*',
    // A root `test.js`, `packages/<name>/test.js`: what most small packages call their tests.
    `**/test.${JS_EXT}`,
    `**/tests.${JS_EXT}`,
    `**/test-*.${JS_EXT}`,
  ],
  python: ['**/test_*.py', '**/*_test.py', '**/tests/**', '**/test/**', '**/conftest.py'],
  go: ['**/*_test.go', '**/testdata/**'],
  // Plus files that hold nothing but `#[cfg(test)]` code: see isRustTestOnly.
  rust: ['**/tests/**', '**/benches/**'],
  java: ['**/src/test/**', '**/src/testFixtures/**'],
  ruby: ['**/spec/**', '**/*_spec.rb', '**/test/**'],
} as const satisfies Record<string, readonly string[]>;

export type Ecosystem = keyof typeof TEST_FILE_RULES;

/** Every ecosystem's defaults in one list (a repository may hold several languages). */
export const DEFAULT_TEST_GLOBS: readonly string[] = [...new Set(Object.values(TEST_FILE_RULES).flat())];

/** Whether `file` (repository-relative, `/`-separated) matches one of `globs`. */
export function matchesTestGlobs(file: string, globs: readonly string[]): boolean {
  return globs.some((g) => minimatch(file, g, { dot: true }));
}

/**
 * Whether a Rust source holds only test code: an inner `#![cfg(test)]` attribute, or every
 * top-level item sits under `#[cfg(test)]` (a `tests.rs` beside the module it tests).
 */
export function isRustTestOnly(source: string): boolean {
  const text = source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
  if (/^\s*#!\[cfg\(test\)\]/m.test(text)) return true;
  let depth = 0;
  let items = 0;
  let pendingTest = false;
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line === '') continue;
    if (depth === 0) {
      if (/^#\[cfg\(test\)\]/.test(line)) {
        pendingTest = true;
        continue;
      }
      if (/^#\[/.test(line) || /^use\s/.test(line)) continue;
      items++;
      if (!pendingTest) return false;
      pendingTest = false;
    }
    for (const ch of line) {
      if (ch === '{') depth++;
      else if (ch === '}') depth = Math.max(0, depth - 1);
    }
  }
  return items > 0;
}

/** Joins a config file's folder and a path it names: `packages/a` + `./test` → `packages/a/test`. */
export function underFolder(folder: string, rel: string): string | undefined {
  const cleaned = rel
    .replace(/^<rootDir>\/?/, '')
    .replace(/^\.\//, '')
    .replace(/\/$/, '');
  if (!cleaned || cleaned.startsWith('/') || cleaned.split('/').includes('..')) return undefined;
  return folder ? `${folder}/${cleaned}` : cleaned;
}

/** A path a configuration names, as globs: a folder takes everything under it. */
export function pathGlobs(folder: string, rel: string): string[] {
  const joined = underFolder(folder, rel);
  if (!joined) return [];
  if (/[*?{[]/.test(joined))
    return [joined.endsWith('/**') || /\.[\w{},]+$/.test(joined) ? joined : `${joined}/**`];
  // `test` may be a folder or a file: both readings are tests.
  const last = joined.slice(joined.lastIndexOf('/') + 1);
  return last.includes('.') ? [joined] : [joined, `${joined}/**`];
}
