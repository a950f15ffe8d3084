/**
 * What a changed file is, for splitting a change into gold patch and test patch and for screening
 * sides that carry no real change: tests (per-ecosystem globs and the repository's configuration,
 * `core/test-file-rules.ts`; overridable), docs, changelogs,
 * lockfiles, and manifests whose change is only a version number. Pure.
 */
import { minimatch } from 'minimatch';
import { DEFAULT_TEST_GLOBS, matchesTestGlobs } from '../core/test-file-rules.ts';

const DOC_GLOBS = [
  '**/*.md',
  '**/*.mdx',
  '**/*.rst',
  '**/*.adoc',
  '**/*.txt',
  '**/docs/**',
  '**/doc/**',
  '**/CHANGELOG*',
  '**/CHANGES*',
  '**/HISTORY*',
  '**/NEWS*',
  '**/LICENSE*',
  '**/AUTHORS*',
  '**/.changeset/**',
];

const LOCKFILES = new Set([
  'package-lock.json',
  'npm-shrinkwrap.json',
  'yarn.lock',
  'pnpm-lock.yaml',
  'bun.lockb',
  'go.sum',
  'Cargo.lock',
  'poetry.lock',
  'uv.lock',
  'Pipfile.lock',
  'Gemfile.lock',
  'composer.lock',
]);

const MANIFESTS = new Set([
  'package.json',
  'pyproject.toml',
  'setup.py',
  'setup.cfg',
  'Cargo.toml',
  'go.mod',
  'pom.xml',
  'build.gradle',
  'build.gradle.kts',
  'version.txt',
  'VERSION',
]);

export type FileKind = 'test' | 'docs' | 'lockfile' | 'version' | 'code';

const matchAny = (file: string, globs: readonly string[]) =>
  globs.some((g) => minimatch(file, g, { dot: true, nocase: false }));

const baseName = (file: string) => file.slice(file.lastIndexOf('/') + 1);

/** A changed line that only moves a version: `"version": "1.2.3"`, `"@acme/api": "^2.0.0"`. */
const VERSION_LINE =
  /^\s*(?:"?[\w@/.-]+"?\s*[:=]\s*)?["']?[~^>=<v]*\d+(?:\.\d+){1,3}(?:[-+][\w.-]+)?["']?,?\s*$|version/i;

/**
 * The kind of one changed file. `changedLines` (added and removed lines of its diff, without the
 * `+`/`-`) tells a version bump in a manifest from a real change; `testGlobs` replaces the defaults.
 */
export function fileKind(
  file: string,
  changedLines: readonly string[],
  testGlobs: readonly string[] = DEFAULT_TEST_GLOBS,
): FileKind {
  if (matchesTestGlobs(file, testGlobs)) return 'test';
  const name = baseName(file);
  if (LOCKFILES.has(name)) return 'lockfile';
  if (MANIFESTS.has(name) && changedLines.length > 0 && changedLines.every((l) => VERSION_LINE.test(l)))
    return 'version';
  if (matchAny(file, DOC_GLOBS)) return 'docs';
  return 'code';
}

const LANGUAGES: Record<string, string> = {
  ts: 'TypeScript',
  tsx: 'TypeScript',
  mts: 'TypeScript',
  cts: 'TypeScript',
  js: 'JavaScript',
  jsx: 'JavaScript',
  mjs: 'JavaScript',
  cjs: 'JavaScript',
  go: 'Go',
  py: 'Python',
  rs: 'Rust',
  java: 'Java',
  kt: 'Kotlin',
  rb: 'Ruby',
  php: 'PHP',
  cs: 'C#',
  c: 'C',
  h: 'C',
  cc: 'C++',
  cpp: 'C++',
  hpp: 'C++',
  swift: 'Swift',
  scala: 'Scala',
  sh: 'Shell',
  sql: 'SQL',
  proto: 'Protocol Buffers',
  graphql: 'GraphQL',
};

/** A file's language by extension, or undefined for data, docs and unknown files. */
export function languageOf(file: string): string | undefined {
  const dot = file.lastIndexOf('.');
  return dot < 0 ? undefined : LANGUAGES[file.slice(dot + 1).toLowerCase()];
}

/** Whether TypeScript's compiler can read the file (for the `interface` of a gold patch). */
export function isScript(file: string): boolean {
  return /\.(?:[mc]?[jt]s|[jt]sx)$/i.test(file) && !/\.d\.[mc]?ts$/i.test(file);
}
