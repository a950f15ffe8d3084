/**
 * The benchmark's organization: three repositories (`acme/core`, `acme/service`, `acme/web`) of
 * a few hundred files each (generated modules, docs, a realistic package.json, a short history),
 * bare remotes served from local paths, one linked change on a branch in each ("version ranges"),
 * and an evaluator-owned hidden suite (node --test, junit). Only the three changes together pass.
 *
 * Two variants: `no-deps`, and `deps`, where each repository depends on two small real npm
 * packages (ms, semver, lodash) installed by the suite's `prepare` with `npm ci` from a lockfile
 * generated here on the host (`npm install --package-lock-only`), and the tests use them.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export type Variant = 'no-deps' | 'deps';

export interface BenchRepo {
  /** `owner/name` as the case names it. */
  repo: string;
  /** Workspace folder name. */
  name: string;
  /** Bare remote (a local path). */
  remote: string;
  base: string;
  head: string;
  /** Files in the base tree. */
  files: number;
}

export interface BenchGroup {
  name: string;
  repo: string;
  /** Hidden test file, absolute. */
  hiddenFile: string;
  /** The suite's test command (sh -c, in $TANDEM_WORKSPACE). */
  run: string;
  /** Result file relative to $TANDEM_RESULTS. */
  resultFile: string;
}

export interface BenchCase {
  variant: Variant;
  dir: string;
  caseFile: string;
  repos: BenchRepo[];
  groups: BenchGroup[];
  /** The per-repository install command (`deps` only). */
  prepare?: string;
  image: string;
  limits: { memory: string; memoryBytes: number; cpus: number; pids: number };
}

export const BRANCH = 'version-ranges';
export const IMAGE = process.env.TANDEM_SANDBOX_IMAGE ?? 'tandem/sandbox:node20';
export const PREPARE = 'npm ci --ignore-scripts --no-audit --no-fund --no-update-notifier';
/** Printed by each test command: seconds on the shared /proc/uptime clock, before and after. */
export const TIMING_MARK = 'bench-test-seconds';
const LIMITS = { memory: '512m', memoryBytes: 512 * 1024 * 1024, cpus: 1, pids: 256 };

const ENV = {
  ...process.env,
  GIT_AUTHOR_NAME: 'Acme Dev',
  GIT_AUTHOR_EMAIL: 'dev@acme.example',
  GIT_COMMITTER_NAME: 'Acme Dev',
  GIT_COMMITTER_EMAIL: 'dev@acme.example',
};

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'init.defaultBranch=main', ...args], {
    cwd,
    env: ENV,
    encoding: 'utf8',
  }).trim();
}

function write(dir: string, files: Record<string, string>): void {
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), text);
  }
}

/** Builds one repository's history in a scratch clone and pushes `main` and the feature branch. */
function buildRepo(root: string, spec: RepoSpec, variant: Variant): BenchRepo {
  const remote = path.join(root, 'remotes', `${spec.name}.git`);
  const work = mkdtempSync(path.join(os.tmpdir(), `tandem-bench-${spec.name}-`));
  const deps = variant === 'deps';
  try {
    mkdirSync(remote, { recursive: true });
    git(remote, 'init', '--bare', '--quiet');
    git(work, 'init', '--quiet');
    const base = spec.base(deps);
    write(work, base);
    if (deps) {
      // A real lockfile for the real packages, resolved now (no install on the host).
      execFileSync('npm', ['install', '--package-lock-only', '--ignore-scripts', '--no-audit', '--no-fund'], {
        cwd: work,
        stdio: 'ignore',
      });
    }
    git(work, 'add', '-A');
    git(work, 'commit', '--quiet', '-m', `${spec.name}: initial import`);
    // A little history, as real repositories have: revisions of a few modules.
    for (let rev = 1; rev <= 8; rev++) {
      write(work, makeModules(spec.name, deps, rev, 12));
      git(work, 'commit', '--quiet', '-am', `${spec.name}: revise modules (${rev})`);
    }
    git(work, 'push', '--quiet', remote, 'HEAD:refs/heads/main');
    const files = Number(git(work, 'ls-files').split('\n').length);
    git(work, 'checkout', '--quiet', '-b', BRANCH);
    write(work, spec.head(deps));
    git(work, 'commit', '--quiet', '-am', `${spec.name}: ${BRANCH}`);
    git(work, 'push', '--quiet', remote, `HEAD:refs/heads/${BRANCH}`);
    return { repo: `acme/${spec.name}`, name: spec.name, remote, base: 'main', head: BRANCH, files };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

function testCommand(name: string): string {
  const up = "$(cut -d' ' -f1 /proc/uptime)";
  return (
    `t0=${up}; node --test --test-reporter=junit --test-reporter-destination=$TANDEM_RESULTS/${name}.xml ` +
    `$TANDEM_HIDDEN/${name}.test.js; rc=$?; echo "${TIMING_MARK} $t0 ${up}"; exit $rc`
  );
}

function suiteYaml(c: Omit<BenchCase, 'dir' | 'caseFile'>): string {
  const prepare = c.prepare
    ? `prepare:\n${c.repos
        .map(
          (r) =>
            `  ${r.repo}:\n    run: ${c.prepare}\n    key_files: [package.json, package-lock.json]\n    outputs: [node_modules]\n    timeout: 300\n`,
        )
        .join('')}`
    : '';
  const tests = c.groups
    .map(
      (g) =>
        `  - name: ${g.name}\n    repo: ${g.repo}\n    files: [hidden/${g.name}.test.js]\n    run: ${JSON.stringify(g.run)}\n` +
        `    results: { format: junit, path: ${g.resultFile} }\n    timeout: 120\n`,
    )
    .join('');
  return `# Evaluator-owned bench suite (${c.variant}); the hidden tests never enter a checkout.
name: bench-${c.variant}
image: ${c.image}
limits: { memory: ${c.limits.memory}, cpus: ${c.limits.cpus}, pids: ${c.limits.pids}, configuration_timeout: 600 }
${prepare}tests:
${tests}merge_order: [${c.repos.map((r) => r.repo).join(', ')}]
`;
}

/** Writes the organization, the suite and the case under `out`; returns what the benchmarks need. */
export function generateBenchCase(out: string, variant: Variant): BenchCase {
  mkdirSync(out, { recursive: true });
  const specs = repoSpecs();
  const repos = specs.map((s) => buildRepo(out, s, variant));
  const evaluator = path.join(out, 'evaluator');
  mkdirSync(path.join(evaluator, 'hidden'), { recursive: true });
  const groups: BenchGroup[] = specs.map((s) => ({
    name: s.name,
    repo: `acme/${s.name}`,
    hiddenFile: path.join(evaluator, 'hidden', `${s.name}.test.js`),
    run: testCommand(s.name),
    resultFile: `${s.name}.xml`,
  }));
  for (const [i, s] of specs.entries())
    writeFileSync(groups[i]!.hiddenFile, s.hiddenTest(variant === 'deps'));
  const c = {
    variant,
    repos,
    groups,
    ...(variant === 'deps' ? { prepare: PREPARE } : {}),
    image: IMAGE,
    limits: LIMITS,
  };
  writeFileSync(path.join(evaluator, 'suite.yml'), suiteYaml(c));
  const caseFile = path.join(out, 'case.yml');
  writeFileSync(
    caseFile,
    `name: bench-${variant}\nsuite: evaluator/suite.yml\ntargets:\n${repos
      .map((r) => `  - { repo: ${r.repo}, url: ${r.remote}, base: ${r.base}, head: ${r.head} }\n`)
      .join('')}`,
  );
  return { ...c, dir: out, caseFile };
}

// ---- Repository contents -------------------------------------------------------------------

type Files = Record<string, string>;

interface RepoSpec {
  name: string;
  base(deps: boolean): Files;
  head(deps: boolean): Files;
  hiddenTest(deps: boolean): string;
}

const MODULES = 280;
const DOCS = 16;
/** Each repository's real dependencies (deps variant); the first is used by its modules. */
const DEPENDENCIES: Record<string, Record<string, string>> = {
  core: { semver: '^7.6.0', ms: '^2.1.3' },
  service: { ms: '^2.1.3', lodash: '^4.17.21' },
  web: { lodash: '^4.17.21', semver: '^7.6.0' },
};
const USE: Record<string, string> = {
  semver: "semver.valid('1.0.' + (input.length % 10)) ? 1 : 0",
  ms: "typeof ms('2s') === 'number' ? 1 : 0",
  lodash: '_.sum(input) % 2',
};
const BINDING: Record<string, string> = { semver: 'semver', ms: 'ms', lodash: '_' };

function moduleText(repo: string, i: number, deps: boolean, rev: number): string {
  const n = String(i).padStart(3, '0');
  const dep = Object.keys(DEPENDENCIES[repo]!)[0]!;
  const uses = deps && i % 10 === 0;
  return `'use strict';
/**
 * ${repo} module ${n} (revision ${rev}).
 * Generated for the Tandem benchmark: a small unit of business logic with a stable interface,
 * so that the repository has the size and shape of a real service (hundreds of files).
 */
${uses ? `const ${BINDING[dep]} = require('${dep}');\n` : ''}
const ID = ${i};
const SALT = ${(i * 7919 + rev * 104729) % 1000003};

/** Folds the input into a checksum; deterministic for a given revision. */
function compute(input) {
  let acc = SALT;
  for (const v of input) acc = (acc * 31 + v + ID) % 1000003;
  ${uses ? `acc += ${USE[dep]};` : '// no dependency used here'}
  return acc;
}

/** A human-readable name for logs and dashboards. */
function describe() {
  return '${repo}-${n}';
}

module.exports = { id: ID, compute, describe, weight: ${i % 7} };
`;
}

function makeModules(repo: string, deps: boolean, rev: number, count: number): Files {
  const files: Files = {};
  const first = rev === 0 ? 0 : (rev * count) % MODULES;
  for (let k = 0; k < (rev === 0 ? MODULES : count); k++) {
    const i = (first + k) % MODULES;
    files[`src/modules/m${String(i).padStart(3, '0')}.js`] = moduleText(repo, i, deps, rev);
  }
  return files;
}

function scaffold(repo: string, deps: boolean): Files {
  const files: Files = makeModules(repo, deps, 0, MODULES);
  const requires = Array.from(
    { length: MODULES },
    (_, i) => `  require('./modules/m${String(i).padStart(3, '0')}'),`,
  );
  files['src/registry.js'] = `'use strict';
const modules = [
${requires.join('\n')}
];
module.exports = { modules, checksum: (input) => modules.reduce((a, m) => (a + m.compute(input)) % 1000003, 0) };
`;
  for (let d = 0; d < DOCS; d++) {
    files[`docs/topic-${String(d).padStart(2, '0')}.md`] =
      `# ${repo}: topic ${d}\n\n${'This page documents one part of the service. '.repeat(12)}\n`;
  }
  files['test/smoke.test.js'] = `const test = require('node:test');
const assert = require('node:assert');
test('registry loads', () => assert.ok(require('../src/registry').modules.length > 0));
`;
  files['README.md'] = `# @acme/${repo}\n\nPart of the Acme platform. See docs/.\n`;
  files['.gitignore'] = 'node_modules/\n';
  files['package.json'] = `${JSON.stringify(
    {
      name: `@acme/${repo}`,
      version: '1.3.0',
      private: true,
      description: `Acme ${repo}`,
      main: 'index.js',
      scripts: { test: 'node --test test/' },
      engines: { node: '>=20' },
      ...(deps ? { dependencies: DEPENDENCIES[repo] } : {}),
      license: 'UNLICENSED',
    },
    null,
    2,
  )}\n`;
  return files;
}

const HEADER = `const test = require('node:test');
const assert = require('node:assert');
const W = process.env.TANDEM_WORKSPACE;
`;

function registryTests(repo: string): string {
  return `const { modules } = require(W + '/${repo}/src/registry');
test('registry has every module', () => assert.strictEqual(modules.length, ${MODULES}));
for (let i = 0; i < ${MODULES}; i += 40) {
  test('modules ' + i + '..' + (i + 39) + ' compute', () => {
    for (const m of modules.slice(i, i + 40)) assert.strictEqual(typeof m.compute([1, 2, 3]), 'number');
  });
}
`;
}

const CORE: RepoSpec = {
  name: 'core',
  base: (deps) => ({
    ...scaffold('core', deps),
    'index.js': `'use strict';
${deps ? "const semver = require('semver');\n" : ''}const registry = require('./src/registry');
function parseVersion(v) {
  const [major, minor, patch] = v.split('.').map(Number);
  return { major, minor, patch };
}
function compareVersions(a, b) {
${deps ? '  return semver.compare(a, b);' : "  const x = parseVersion(a), y = parseVersion(b);\n  for (const k of ['major', 'minor', 'patch']) if (x[k] !== y[k]) return x[k] < y[k] ? -1 : 1;\n  return 0;"}
}
module.exports = { registry, parseVersion, compareVersions };
`,
  }),
  head: (deps) => ({
    'index.js': `${CORE.base(deps)['index.js']!.replace('module.exports = { registry, parseVersion, compareVersions };', '')}/** Does the version satisfy a range ("^1.2.0", ">=1.0.0")? */
function satisfiesRange(version, range) {
${deps ? '  return semver.satisfies(version, range);' : "  if (range.startsWith('>=')) return compareVersions(version, range.slice(2)) >= 0;\n  const min = range.replace(/^\\^/, '');\n  return parseVersion(version).major === parseVersion(min).major && compareVersions(version, min) >= 0;"}
}
module.exports = { registry, parseVersion, compareVersions, satisfiesRange };
`,
  }),
  hiddenTest: (deps) => `${HEADER}const core = require(W + '/core');
${deps ? "const semver = require(W + '/core/node_modules/semver');\n" : ''}${registryTests('core')}
test('compares versions', () => assert.strictEqual(core.compareVersions('1.2.3', '1.10.0'), -1));
test('satisfies ranges', () => {
  assert.strictEqual(core.satisfiesRange('1.4.0', '^1.2.0'), true);
  assert.strictEqual(core.satisfiesRange('2.0.0', '^1.2.0'), false);
${deps ? "  for (const v of ['1.2.0', '1.9.9', '2.0.0', '0.9.0']) assert.strictEqual(core.satisfiesRange(v, '^1.2.0'), semver.satisfies(v, '^1.2.0'));\n" : ''}});
`,
};

const SERVICE: RepoSpec = {
  name: 'service',
  base: (deps) => ({
    ...scaffold('service', deps),
    'index.js': `'use strict';
${deps ? "const ms = require('ms');\n" : ''}const core = require('../core');
function describeRelease(r) {
  return r.name + '@' + r.version;
}
function timeoutLabel(millis) {
${deps ? '  return ms(millis);' : "  return millis % 60000 === 0 ? millis / 60000 + 'm' : Math.round(millis / 1000) + 's';"}
}
module.exports = { core, describeRelease, timeoutLabel };
`,
  }),
  head: (deps) => ({
    'index.js': `${SERVICE.base(deps)['index.js']!.replace('module.exports = { core, describeRelease, timeoutLabel };', '')}function releaseSummary(r, range) {
  const ok = core.satisfiesRange(r.version, range);
  return describeRelease(r) + (ok ? ' compatible' : ' incompatible') + ' (timeout ' + timeoutLabel(r.timeoutMs) + ')';
}
module.exports = { core, describeRelease, timeoutLabel, releaseSummary };
`,
  }),
  hiddenTest: (deps) => `${HEADER}const service = require(W + '/service');
${deps ? "const ms = require(W + '/service/node_modules/ms');\n" : ''}${registryTests('service')}
test('describes a release', () => assert.strictEqual(service.describeRelease({ name: 'api', version: '1.0.0' }), 'api@1.0.0'));
test('labels timeouts', () => {
  assert.strictEqual(service.timeoutLabel(60000), '1m');
${deps ? '  assert.strictEqual(service.timeoutLabel(5000), ms(5000));\n' : ''}});
test('summarizes a release against a range', () => {
  const r = { name: 'api', version: '1.4.0', timeoutMs: 60000 };
  assert.strictEqual(service.releaseSummary(r, '^1.2.0'), 'api@1.4.0 compatible (timeout 1m)');
});
`,
};

const WEB: RepoSpec = {
  name: 'web',
  base: (deps) => ({
    ...scaffold('web', deps),
    'index.js': `'use strict';
${deps ? "const { escape } = require('lodash');\n" : "const escape = (s) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');\n"}const service = require('../service');
function render(r) {
  return '<li>' + escape(service.describeRelease(r)) + '</li>';
}
module.exports = { render };
`,
  }),
  head: (deps) => ({
    'index.js': `${WEB.base(deps)['index.js']!.replace(/function render[\s\S]*$/, '')}function render(r, range) {
  if (!range) return '<li>' + escape(service.describeRelease(r)) + '</li>';
  const summary = service.releaseSummary(r, range);
  const cls = summary.includes(' compatible') ? 'compatible' : 'incompatible';
  return '<li class="' + cls + '">' + escape(summary) + '</li>';
}
module.exports = { render };
`,
  }),
  hiddenTest: (deps) => `${HEADER}const web = require(W + '/web');
${deps ? "const _ = require(W + '/web/node_modules/lodash');\n" : ''}${registryTests('web')}
test('escapes names', () => {
  assert.strictEqual(web.render({ name: '<b>', version: '1.0.0' }), '<li>&lt;b&gt;@1.0.0</li>');
${deps ? "  assert.ok(web.render({ name: 'a&b', version: '1.0.0' }).includes(_.escape('a&b')));\n" : ''}});
test('renders compatibility', () => {
  const html = web.render({ name: 'api', version: '1.4.0', timeoutMs: 60000 }, '^1.2.0');
  assert.strictEqual(html, '<li class="compatible">api@1.4.0 compatible (timeout 1m)</li>');
});
`,
};

function repoSpecs(): RepoSpec[] {
  return [CORE, SERVICE, WEB];
}
