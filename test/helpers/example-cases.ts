/**
 * Builders for whole cases (repositories, suite, hidden files, case file) for engine integration
 * and CLI e2e tests. Two kinds: variants of the embedded example (examples/checkout), and small
 * cases whose hidden checks are shell scripts that write TAP, which keeps each configuration
 * cheap (no node test runner per group).
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import YAML from 'yaml';
import { generateExample } from '../../examples/checkout/generate.ts';
import type { SuiteInput } from '../../src/core/suite.schema.ts';
import { loadCase } from '../../src/engine/case-loader.ts';
import type { EvaluationInput, EvaluationOptions } from '../../src/engine/evaluate-api.ts';
import { git } from '../../src/engine/git/git.ts';
import {
  commitOn,
  createRepo,
  type Files,
  type FixtureRepo,
  makeTempDir,
  writeFiles,
} from './git-fixtures.ts';

export const SANDBOX_IMAGE = 'tandem/sandbox:node20';
export const REPO_ROOT = path.resolve(import.meta.dirname, '../..');
export const EXAMPLE_BRANCH = 'multi-currency';

/** Starts the Docker engine and builds the sandbox image when missing (idempotent). */
export function ensureDocker(): void {
  execFileSync('bash', ['scripts/start-docker.sh'], { cwd: REPO_ROOT, stdio: 'inherit' });
  execFileSync('bash', ['scripts/build-sandbox-image.sh'], { cwd: REPO_ROOT, stdio: 'inherit' });
}

/** Engine options for tests: docker, two jobs, full matrix, result cache on. */
export function testOptions(cacheDir: string, over: Partial<EvaluationOptions> = {}): EvaluationOptions {
  return {
    matrix: 'full',
    reruns: 0,
    jobs: 2,
    cacheDir,
    useResultCache: true,
    sandbox: 'docker',
    prepareNetwork: 'host',
    ...over,
  };
}

export interface BuiltCase {
  root: string;
  caseFile: string;
  input: EvaluationInput;
}

type CaseTarget =
  | { repo: string; url: string; base: string; head: string; merge?: boolean }
  | { repo: string; url: string; base: string; patch: string };
type CaseContext = { repo: string; url: string; ref: string };

/** Writes a case file as YAML and loads it as the CLI would (validated, paths resolved). */
export async function writeCase(
  root: string,
  file: string,
  spec: { name: string; suite: string | SuiteInput; targets: CaseTarget[]; context?: CaseContext[] },
): Promise<BuiltCase> {
  const caseFile = path.join(root, file);
  await writeFile(caseFile, YAML.stringify({ ...spec, context: spec.context ?? [] }));
  return { root, caseFile, input: await loadCase(caseFile) };
}

// ---------------------------------------------------------------------------------------------
// The embedded example and its variants.

export interface Example extends BuiltCase {
  /** Bare remotes by workspace name: schema, api, web. */
  remotes: Record<'schema' | 'api' | 'web', string>;
}

/** The example as `npm run demo` generates it: three targets, jointly necessary. */
export async function exampleCase(root?: string): Promise<Example> {
  const dir = root ?? (await makeTempDir('tandem-example-'));
  const caseFile = generateExample(dir);
  const remotes = {
    schema: path.join(dir, 'remotes', 'schema.git'),
    api: path.join(dir, 'remotes', 'api.git'),
    web: path.join(dir, 'remotes', 'web.git'),
  };
  return { root: dir, caseFile, input: await loadCase(caseFile), remotes };
}

/** The verdict the example deserves: resolved, every target needed, every F2P test fixed. */
export const EXAMPLE_VERDICT = { resolved: true, jointlyNecessary: true, unnecessary: [], fixRate: 1 };

/** A target of the example at main → multi-currency. */
export function exampleTarget(
  ex: Example,
  name: 'schema' | 'api' | 'web',
  head = EXAMPLE_BRANCH,
): CaseTarget {
  return { repo: `acme/${name}`, url: ex.remotes[name], base: 'main', head };
}

/** A suite over the example's hidden tests, limited to some groups (paths relative to evaluator/). */
export function exampleSuite(groups: Array<'schema' | 'api' | 'web'>, name = 'checkout-subset'): SuiteInput {
  return {
    name,
    image: SANDBOX_IMAGE,
    limits: { memory: '256m', cpus: 1, pids: 256, configuration_timeout: 300 },
    tests: groups.map((g) => ({
      name: g,
      repo: `acme/${g}`,
      files: [`hidden/${g}.test.js`],
      run: `node --test --test-reporter=junit --test-reporter-destination=$TANDEM_RESULTS/${g}.xml $TANDEM_HIDDEN/${g}.test.js`,
      results: { format: 'junit', path: `${g}.xml` },
      timeout: 60,
    })),
  };
}

/** Writes a suite file under the example's evaluator/ folder; returns its path relative to the root. */
export async function writeExampleSuite(ex: Example, file: string, suite: SuiteInput): Promise<string> {
  await writeFile(path.join(ex.root, 'evaluator', file), YAML.stringify(suite));
  return `evaluator/${file}`;
}

/** Pushes one commit with `files` onto `branch` of a bare remote (through a throwaway clone). */
export async function pushCommit(
  bare: string,
  branch: string,
  files: Files,
  message = 'follow-up',
): Promise<void> {
  const work = await makeTempDir('tandem-push-');
  try {
    await git(['clone', '--quiet', '--branch', branch, bare, work]);
    await writeFiles(work, files);
    await git(['add', '--all'], { cwd: work });
    const env = {
      GIT_AUTHOR_NAME: 'Acme Dev',
      GIT_AUTHOR_EMAIL: 'dev@acme.example',
      GIT_COMMITTER_NAME: 'Acme Dev',
      GIT_COMMITTER_EMAIL: 'dev@acme.example',
    };
    await git(['commit', '--quiet', '-m', message], { cwd: work, env });
    await git(['push', '--quiet', 'origin', `HEAD:refs/heads/${branch}`], { cwd: work });
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------------------------------------
// Small shell cases.

/** One check of a TAP-writing shell script: `cmd` exits 0 → `ok`. Its output goes to stderr. */
export interface Check {
  name: string;
  cmd: string;
}

/**
 * A POSIX sh script that runs each check and writes a TAP stream to `$TANDEM_RESULTS/<file>`.
 * The file is written at the end, so a script killed midway leaves no result file.
 */
export function tapScript(file: string, checks: Check[]): string {
  const part = `"$TANDEM_RESULTS/.${file}.part"`;
  const lines = checks.map(
    (c, i) =>
      `if ( ${c.cmd} ) 1>&2; then echo "ok ${i + 1} - ${c.name}" >> ${part}; else echo "not ok ${i + 1} - ${c.name}" >> ${part}; fi`,
  );
  return [
    '#!/bin/sh',
    `echo "TAP version 13" > ${part}`,
    `echo "1..${checks.length}" >> ${part}`,
    ...lines,
    `mv ${part} "$TANDEM_RESULTS/${file}"`,
    '',
  ].join('\n');
}

/** A test group that runs `sh $TANDEM_HIDDEN/<name>.sh` with a TAP result file. */
export function shellGroup(
  name: string,
  extra: { repo?: string; timeout?: number; run?: string; files?: string[] } = {},
): NonNullable<SuiteInput['tests']>[number] {
  return {
    name,
    ...(extra.repo ? { repo: extra.repo } : {}),
    files: extra.files ?? [`hidden/${name}.sh`],
    run: extra.run ?? `sh $TANDEM_HIDDEN/${name}.sh`,
    results: { format: 'tap', path: `${name}.tap` },
    timeout: extra.timeout ?? 60,
  };
}

/** A test group that sleeps for 10 minutes and never writes its result file: killed at `timeout`. */
export function hangGroup(timeout: number): NonNullable<SuiteInput['tests']>[number] {
  return { name: 'hang', run: 'sleep 600', results: { format: 'tap', path: 'hang.tap' }, timeout };
}

export interface RepoSpec {
  /** Workspace name; the case names it `acme/<name>`. */
  name: string;
  base: Files;
  /** Files changed on the `feature` branch; absent: the repository is context. */
  head?: Files;
}

export interface ShellCase extends BuiltCase {
  repos: Record<string, FixtureRepo>;
}

/**
 * Repositories with `main` and (for targets) `feature`, an evaluator folder with `hidden`
 * files and `suite`, and a case. Targets use `head: feature` unless `patches` gives a diff for
 * them, or `heads` overrides the ref.
 */
export async function shellCase(spec: {
  name: string;
  repos: RepoSpec[];
  suite: SuiteInput;
  hidden: Files;
  patches?: Record<string, string>;
  heads?: Record<string, string>;
  root?: string;
}): Promise<ShellCase> {
  const root = spec.root ?? (await makeTempDir('tandem-case-'));
  const remotes = path.join(root, 'remotes');
  await mkdir(remotes, { recursive: true });
  const repos: Record<string, FixtureRepo> = {};
  const targets: CaseTarget[] = [];
  const context: CaseContext[] = [];
  for (const r of spec.repos) {
    const repo = await createRepo(remotes, r.name, r.base);
    repos[r.name] = repo;
    const id = `acme/${r.name}`;
    if (r.head) await commitOn(repo, 'feature', r.head, `${r.name}: feature`, { from: 'main' });
    const patch = spec.patches?.[r.name];
    if (patch !== undefined) {
      await writeFiles(root, { [`patches/${r.name}.diff`]: patch });
      targets.push({ repo: id, url: repo.url, base: 'main', patch: `patches/${r.name}.diff` });
    } else if (r.head || spec.heads?.[r.name]) {
      targets.push({ repo: id, url: repo.url, base: 'main', head: spec.heads?.[r.name] ?? 'feature' });
    } else {
      context.push({ repo: id, url: repo.url, ref: 'main' });
    }
  }
  await writeFiles(path.join(root, 'evaluator'), { ...spec.hidden, 'suite.yml': YAML.stringify(spec.suite) });
  const built = await writeCase(root, 'case.yml', {
    name: spec.name,
    suite: 'evaluator/suite.yml',
    targets,
    context,
  });
  return { ...built, repos };
}

/**
 * The smallest shell case: one repository `app` (a target when `head` or `heads` is given) and
 * one test group `checks` that runs `checks` into a TAP file.
 */
export function appChecksCase(spec: {
  name: string;
  base: Files;
  head?: Files;
  heads?: Record<string, string>;
  checks: Check[];
}): Promise<ShellCase> {
  return shellCase({
    name: spec.name,
    repos: [{ name: 'app', base: spec.base, ...(spec.head ? { head: spec.head } : {}) }],
    ...(spec.heads ? { heads: spec.heads } : {}),
    suite: { name: `${spec.name}-suite`, image: SANDBOX_IMAGE, tests: [shellGroup('checks')] },
    hidden: { 'hidden/checks.sh': tapScript('checks.tap', spec.checks) },
  });
}

/** A target `acme/app` whose head ref `no-such-branch` does not exist; base passes its check. */
export function unknownRefCase(): Promise<ShellCase> {
  return appChecksCase({
    name: 'unknown-ref',
    base: { 'app.txt': 'alpha\n' },
    heads: { app: 'no-such-branch' },
    checks: [{ name: 'has app', cmd: 'test -f app/app.txt' }],
  });
}

/** Sub-folders of `dir` (sorted), or [] when it does not exist. */
export async function subdirs(dir: string): Promise<string[]> {
  try {
    return (await readdir(dir, { withFileTypes: true }))
      .filter((e) => e.isDirectory())
      .map((e) => e.name)
      .sort();
  } catch {
    return [];
  }
}

// ---------------------------------------------------------------------------------------------
// The CLI as a user runs it.

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** A running `node bin/tandem.js …`; `done` settles when it exits. */
export interface CliProcess {
  child: ChildProcess;
  done: Promise<CliResult>;
}

/** Environment overrides for the CLI; `undefined` removes a variable (e.g. the runner's FORCE_COLOR). */
export type CliEnv = Record<string, string | undefined>;

export function startCli(args: string[], env: CliEnv = {}): CliProcess {
  const merged: CliEnv = { ...process.env, NO_COLOR: '1', ...env };
  const child = spawn(process.execPath, [path.join(REPO_ROOT, 'bin', 'tandem.js'), ...args], {
    cwd: REPO_ROOT,
    env: Object.fromEntries(Object.entries(merged).filter(([, v]) => v !== undefined)),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d: Buffer) => {
    stdout += d.toString();
  });
  child.stderr!.on('data', (d: Buffer) => {
    stderr += d.toString();
  });
  const done = new Promise<CliResult>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
  return { child, done };
}

export function runCli(args: string[], env: CliEnv = {}): Promise<CliResult> {
  return startCli(args, env).done;
}
