/**
 * The benchmark's organization: three repositories (`acme/core`, `acme/service`, `acme/web`) of
 * about 300 files each with a history of 60 commits on `main`, bare remotes on disk (served over
 * HTTP by serve-case.ts), one linked change on a branch in each ("version ranges", repo-specs.ts)
 * and an evaluator-owned hidden suite (node --test, junit). Only the three changes together pass.
 *
 * Two variants: `no-deps`, and `deps`, where each repository depends on two small real npm
 * packages (ms, semver, lodash) installed by the suite's `prepare` with `npm ci` from a lockfile
 * generated here on the host (`npm install --package-lock-only`), and the tests use them.
 *
 * Everything here is synchronous (git through the example's helpers): run it before serving.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { git, write } from '../examples/checkout/generate.ts';
import { HISTORY, revision } from './repo-content.ts';
import { baseFiles, REPO_SPECS, type RepoSpec } from './repo-specs.ts';

export type Variant = 'no-deps' | 'deps';

export interface BenchRepo {
  /** `owner/name` as the case names it. */
  repo: string;
  /** Workspace folder name. */
  name: string;
  /** The bare repository on disk. */
  remoteDir: string;
  /** What the case and the baseline fetch: `remoteDir` until serve-case.ts puts it behind HTTP. */
  url: string;
  base: string;
  head: string;
  /** Files in the base tree. */
  files: number;
  /** Commits on `main`. */
  commits: number;
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

function commitAll(work: string, message: string): void {
  git(work, 'add', '-A');
  git(work, 'commit', '--quiet', '-m', message);
}

/** Builds one repository's history in a scratch folder and pushes `main` and the feature branch. */
function buildRepo(root: string, spec: RepoSpec, variant: Variant): BenchRepo {
  const remoteDir = path.join(root, 'remotes', `${spec.name}.git`);
  const work = mkdtempSync(path.join(os.tmpdir(), `tandem-bench-${spec.name}-`));
  const deps = variant === 'deps';
  try {
    mkdirSync(remoteDir, { recursive: true });
    git(remoteDir, 'init', '--bare', '--quiet');
    git(work, 'init', '--quiet');
    write(work, baseFiles(spec, deps));
    if (deps) {
      // A real lockfile for the real packages, resolved now (no install on the host).
      execFileSync('npm', ['install', '--package-lock-only', '--ignore-scripts', '--no-audit', '--no-fund'], {
        cwd: work,
        stdio: 'ignore',
      });
    }
    commitAll(work, `${spec.name}: initial import`);
    // History, as maintained repositories have: every clone transfers it.
    for (let rev = 1; rev <= HISTORY; rev++) {
      const r = revision(spec.name, deps, rev);
      write(work, r.files);
      commitAll(work, r.message);
    }
    git(work, 'push', '--quiet', remoteDir, 'HEAD:refs/heads/main');
    const files = git(work, 'ls-files').split('\n').length;
    const commits = Number(git(work, 'rev-list', '--count', 'HEAD'));
    git(work, 'checkout', '--quiet', '-b', BRANCH);
    write(work, { 'index.js': spec.headIndex(deps) });
    commitAll(work, `feat(${spec.name}): ${BRANCH}`);
    git(work, 'push', '--quiet', remoteDir, `HEAD:refs/heads/${BRANCH}`);
    const repo = `acme/${spec.name}`;
    return { repo, name: spec.name, remoteDir, url: remoteDir, base: 'main', head: BRANCH, files, commits };
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

/** (Re)writes the case file with the repositories' current URLs. */
export function writeCaseFile(c: BenchCase): void {
  const targets = c.repos
    .map((r) => `  - { repo: ${r.repo}, url: ${r.url}, base: ${r.base}, head: ${r.head} }\n`)
    .join('');
  writeFileSync(c.caseFile, `name: bench-${c.variant}\nsuite: evaluator/suite.yml\ntargets:\n${targets}`);
}

/** Writes the organization, the suite and the case under `out`; returns what the benchmarks need. */
export function generateBenchCase(out: string, variant: Variant): BenchCase {
  mkdirSync(out, { recursive: true });
  const repos = REPO_SPECS.map((s) => buildRepo(out, s, variant));
  const evaluator = path.join(out, 'evaluator');
  mkdirSync(path.join(evaluator, 'hidden'), { recursive: true });
  const groups: BenchGroup[] = REPO_SPECS.map((s) => ({
    name: s.name,
    repo: `acme/${s.name}`,
    hiddenFile: path.join(evaluator, 'hidden', `${s.name}.test.js`),
    run: testCommand(s.name),
    resultFile: `${s.name}.xml`,
  }));
  for (const [i, s] of REPO_SPECS.entries())
    writeFileSync(groups[i]!.hiddenFile, s.hiddenTest(variant === 'deps'));
  const c: BenchCase = {
    variant,
    dir: out,
    caseFile: path.join(out, 'case.yml'),
    repos,
    groups,
    ...(variant === 'deps' ? { prepare: PREPARE } : {}),
    image: IMAGE,
    limits: LIMITS,
  };
  writeFileSync(path.join(evaluator, 'suite.yml'), suiteYaml(c));
  writeCaseFile(c);
  return c;
}
