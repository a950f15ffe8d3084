/**
 * The real case from public history (perf/README.md, "A real case"): ES2020 optional chaining
 * landing in eslint-visitor-keys, espree and eslint in June–July 2020, three pull requests by the
 * same author, each consumer depending on its producers:
 *   eslint/eslint-visitor-keys#12 → eslint/espree#446 (eslint-visitor-keys, acorn) →
 *   eslint/eslint#13416 (espree, eslint-visitor-keys, eslint-scope, eslint-utils).
 * The fixture (perf/fixtures/real-case/, built by real-case-fixture.sh) holds per repository a
 * bundle with `main` (the PR's base) and `pr` (the PR's merged tree with tests/ as in base), and
 * the tests the PRs touched under hidden/<name>/tests/ — the evaluator's hidden tests.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { IMAGE, TIMING_MARK } from './generate-case.ts';

export const FIXTURE = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures', 'real-case');

export interface RealRepo {
  /** `owner/name` as the case names it. */
  repo: string;
  /** Workspace folder name (and bundle name). */
  name: string;
  /** Upstream provenance (README): the PR's base commit and merged commit. */
  pr: number;
  upstreamBase: string;
  upstreamMerged: string;
  /** Mocha test files the hidden group runs, relative to the repository (hidden ones copied in first). */
  testFiles: string;
}

export const REAL_REPOS: RealRepo[] = [
  {
    repo: 'eslint/eslint-visitor-keys',
    name: 'eslint-visitor-keys',
    pr: 12,
    upstreamBase: 'd15b95435c7732b8ade7b607d3bb3242f95a8c4f',
    upstreamMerged: 'c92dd7ff96f0044dba12d681406a025b92b4c437',
    testFiles: 'tests/lib',
  },
  {
    repo: 'eslint/espree',
    name: 'espree',
    pr: 446,
    upstreamBase: '0cc78007c933564f32fd849bd8022992845c3ac1',
    upstreamMerged: '872645cea0bee08960b93c097f84153d44b44d7f',
    // Walks tests/fixtures/ecma-version, where the PR's optional-chaining fixtures land.
    testFiles: 'tests/lib/ecma-version.js',
  },
  {
    repo: 'eslint/eslint',
    name: 'eslint',
    pr: 13416,
    upstreamBase: '540b1af77278ae649b621aa8d4bf8d6de03c3155',
    upstreamMerged: '6ea3178776eae0e40c3f5498893e8aab0e23686b',
    // The rule tests the PR touched, plus the code-path analyzer test that walks its new fixtures.
    testFiles:
      '$(cd $TANDEM_HIDDEN && find tests/lib -name "*.js" | sort) tests/lib/linter/code-path-analysis/code-path-analyzer.js',
  },
];

/** Each consumer sees its producers' checkouts of the configuration (not the published packages). */
export const WIRING = [
  { into: 'eslint/espree', repo: 'eslint/eslint-visitor-keys', name: 'eslint-visitor-keys' },
  { into: 'eslint/eslint', repo: 'eslint/espree', name: 'espree' },
  { into: 'eslint/eslint', repo: 'eslint/eslint-visitor-keys', name: 'eslint-visitor-keys' },
];

/**
 * The install both sides run per repository: no lockfile was committed upstream (their `.npmrc`
 * says `package-lock = false`), so npm resolves the ranges; peer dependencies as npm 6 (2020)
 * treated them, and no install scripts (puppeteer would download a browser).
 */
export const INSTALL =
  'npm install --legacy-peer-deps --ignore-scripts --no-audit --no-fund --no-update-notifier';

export const LIMITS = { memory: '2g', memoryBytes: 2 * 1024 ** 3, cpus: 1, pids: 1024 };
export { IMAGE };

/**
 * The group's test command: the hidden tests copied into the configuration's private copy, mocha's
 * xunit. Mocha's 2 s default timeout would fail slow cases on a loaded machine; the group has its own.
 */
export function testCommand(r: RealRepo): string {
  const up = "$(cut -d' ' -f1 /proc/uptime)";
  return (
    `cd $TANDEM_WORKSPACE/${r.name} && cp -R $TANDEM_HIDDEN/tests/. tests/ && t0=${up}; ` +
    `node_modules/.bin/mocha --timeout 120000 --reporter xunit --reporter-options output=$TANDEM_RESULTS/${r.name}.xml ${r.testFiles}; ` +
    `rc=$?; echo "${TIMING_MARK} $t0 ${up}"; exit $rc`
  );
}

export function suiteYaml(): string {
  const prepare = REAL_REPOS.map(
    (r) =>
      `  ${r.repo}:\n    run: ${INSTALL}\n    key_files: [package.json]\n    outputs: [node_modules]\n    timeout: 1200\n`,
  ).join('');
  const wiring = WIRING.map(
    (w) => `  - { into: ${w.into}, repo: ${w.repo}, as: node, name: ${w.name} }\n`,
  ).join('');
  const tests = REAL_REPOS.map(
    (r) =>
      `  - name: ${r.name}\n    repo: ${r.repo}\n    files: [hidden/${r.name}/tests]\n` +
      `    run: ${JSON.stringify(testCommand(r))}\n    results: { format: junit, path: ${r.name}.xml }\n    timeout: 600\n`,
  ).join('');
  return `# Evaluator-owned suite of the real case (perf/real-case-spec.ts); the hidden tests never enter a PR head.
name: bench-real-optional-chaining
image: ${IMAGE}
limits: { memory: ${LIMITS.memory}, cpus: ${LIMITS.cpus}, pids: ${LIMITS.pids}, configuration_timeout: 1800 }
prepare:
${prepare}wiring:
${wiring}tests:
${tests}merge_order: [${REAL_REPOS.map((r) => r.repo).join(', ')}]
`;
}

/** The case file: each repository's `main` (the PR's base) and `pr` (its head) at the served URL. */
export function caseYaml(urlOf: (name: string) => string): string {
  const targets = REAL_REPOS.map(
    (r) => `  - { repo: ${r.repo}, url: ${urlOf(r.name)}, base: main, head: pr }\n`,
  ).join('');
  return `name: bench-real-optional-chaining\nsuite: evaluator/suite.yml\ntargets:\n${targets}`;
}
