/**
 * The real npm case (perf/README.md, "The real npm case"), generated at run time: three
 * repositories written by the bench (real-case-sources.ts, real-case-hidden.ts), each consumer
 * depending on its producers, acme-visitor-keys → acme-parser → acme-linter, one linked change
 * (optional chaining). What makes it real is the install: each `package.json` carries the
 * devDependencies of a JavaScript toolchain (mocha, eslint, babel, webpack, jest, …), about 2,500
 * packages from the npm registry in all, so installs dominate as in real cases. Per repository,
 * `main` is the PR's base and `pr` the PR's head (without the hidden tests).
 */
import { IMAGE, TIMING_MARK } from './generate-case.ts';
import { keysSources, linterSources, parserSources, type RepoSources } from './real-case-sources.ts';

export interface RealRepo {
  /** `owner/name` as the case names it. */
  repo: string;
  /** Workspace folder name and package name (the wiring's `name`). */
  name: string;
  /** Widely used npm packages, as ranges: what `prepare` installs. */
  devDependencies: Record<string, string>;
  sources: () => RepoSources;
  /** Mocha test files the hidden group runs, relative to the repository (hidden ones copied in first). */
  testFiles: string;
}

const TOOLS = {
  mocha: '^10.0.0',
  chai: '^4.3.0',
  eslint: '^8.57.0',
  nyc: '^17.0.0',
  sinon: '^17.0.0',
  typescript: '^5.4.0',
};
const BABEL = { '@babel/core': '^7.24.0', '@babel/preset-env': '^7.24.0' };
const WEBPACK = { webpack: '^5.90.0', 'webpack-cli': '^5.1.0' };

export const REAL_REPOS: RealRepo[] = [
  {
    repo: 'acme/acme-visitor-keys',
    name: 'acme-visitor-keys',
    devDependencies: { ...TOOLS, ...BABEL, rimraf: '^5.0.0', prettier: '^3.0.0', jsdoc: '^4.0.0' },
    sources: keysSources,
    testFiles: 'tests/lib',
  },
  {
    repo: 'acme/acme-parser',
    name: 'acme-parser',
    devDependencies: {
      ...TOOLS,
      ...BABEL,
      ...WEBPACK,
      rollup: '^4.0.0',
      '@rollup/plugin-node-resolve': '^15.0.0',
      '@rollup/plugin-commonjs': '^25.0.0',
      shelljs: '^0.8.5',
      c8: '^9.0.0',
    },
    sources: parserSources,
    testFiles: 'tests/lib',
  },
  {
    repo: 'acme/acme-linter',
    name: 'acme-linter',
    devDependencies: {
      ...TOOLS,
      ...BABEL,
      ...WEBPACK,
      'eslint-plugin-jsdoc': '^48.0.0',
      'eslint-plugin-n': '^16.0.0',
      '@typescript-eslint/eslint-plugin': '^7.0.0',
      '@typescript-eslint/parser': '^7.0.0',
      'babel-loader': '^9.1.0',
      jest: '^29.7.0',
      karma: '^6.4.0',
      jsdoc: '^4.0.0',
      'markdownlint-cli': '^0.39.0',
      gulp: '^4.0.2',
      c8: '^9.0.0',
      lerna: '^8.0.0',
      puppeteer: '^22.0.0',
    },
    sources: linterSources,
    testFiles: 'tests/lib',
  },
];

/** Each consumer sees its producers' checkouts of the configuration (none of them is published). */
export const WIRING = [
  { into: 'acme/acme-parser', repo: 'acme/acme-visitor-keys', name: 'acme-visitor-keys' },
  { into: 'acme/acme-linter', repo: 'acme/acme-parser', name: 'acme-parser' },
  { into: 'acme/acme-linter', repo: 'acme/acme-visitor-keys', name: 'acme-visitor-keys' },
];

/** A repository's package.json: its name (the wiring checks it) and the toolchain it installs. */
export function packageJson(r: RealRepo): string {
  const pkg = {
    name: r.name,
    version: '1.0.0',
    private: true,
    main: 'lib/index.js',
    devDependencies: r.devDependencies,
  };
  return `${JSON.stringify(pkg, null, 2)}\n`;
}

/**
 * The install both sides run per repository: no lockfile is committed, so npm resolves the ranges
 * against today's registry; peer dependencies as npm 6 treated them (several of the tools' peer
 * ranges disagree), and no install scripts (puppeteer would download a browser).
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
name: bench-real-npm
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
  return `name: bench-real-npm\nsuite: evaluator/suite.yml\ntargets:\n${targets}`;
}
