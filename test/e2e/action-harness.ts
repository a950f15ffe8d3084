/**
 * Runs the committed bundle `dist/index.js` the way the Actions runner does: a separate `node`
 * process, inputs as `INPUT_*` variables, `GITHUB_OUTPUT` / `GITHUB_STEP_SUMMARY` files, the
 * evaluator repository as `GITHUB_WORKSPACE`, and workflow commands read back from stdout.
 */
import { execFileSync, execSync, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll } from 'vitest';
import { generateExample } from '../../examples/checkout/generate.ts';
import type { Report } from '../../src/core/report.schema.ts';
import { makeTempDir, removeTempDir } from '../helpers/git-fixtures.ts';
import { type GitHttpServer, startGitHttpServer } from '../support/git-http-server.ts';
import { type StandIn, startGitHubStandIn } from '../support/github-standin/index.ts';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const BUNDLE = path.join(ROOT, 'dist', 'index.js');

export interface ActionRun {
  code: number;
  stdout: string;
  stderr: string;
  outputs: Record<string, string>;
  summary: string;
  /** Workflow commands from stdout: `::error title=..::msg` → {command, properties, message} (unescaped). */
  commands: Array<{ command: string; properties: Record<string, string>; message: string }>;
}

const unescapeCommand = (s: string) =>
  s
    .replace(/%0D/g, '\r')
    .replace(/%0A/g, '\n')
    .replace(/%3A/g, ':')
    .replace(/%2C/g, ',')
    .replace(/%25/g, '%');

/** Parses the `name<<DELIM\nvalue\nDELIM` records of a GITHUB_OUTPUT file. */
export function parseOutputFile(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const m = /^([^<]+)<<(.+)$/.exec(lines[i]!);
    if (!m) continue;
    const end = lines.indexOf(m[2]!, i + 1);
    out[m[1]!] = lines.slice(i + 1, end).join('\n');
    i = end;
  }
  return out;
}

export function parseCommands(stdout: string): ActionRun['commands'] {
  const out: ActionRun['commands'] = [];
  for (const line of stdout.split('\n')) {
    const m = /^::([a-z-]+)(?: ([^:]*))?::(.*)$/.exec(line);
    if (!m) continue;
    const properties: Record<string, string> = {};
    for (const kv of (m[2] ?? '').split(',').filter(Boolean)) {
      const i = kv.indexOf('=');
      properties[kv.slice(0, i)] = unescapeCommand(kv.slice(i + 1));
    }
    out.push({ command: m[1]!, properties, message: unescapeCommand(m[3] ?? '') });
  }
  return out;
}

/**
 * For a `beforeAll`: Docker running with the sandbox image built, and a fresh temporary `dir`
 * laid out as a runner sees it: the evaluator repository checkout (`workspace`, not created) and
 * the step files' folder (`runnerDir`).
 */
export async function prepareRunner(
  prefix: string,
): Promise<{ dir: string; workspace: string; runnerDir: string }> {
  execSync('bash scripts/start-docker.sh && bash scripts/build-sandbox-image.sh', {
    cwd: ROOT,
    stdio: 'inherit',
  });
  const dir = await makeTempDir(prefix);
  const runnerDir = path.join(dir, 'runner');
  mkdirSync(runnerDir, { recursive: true });
  return { dir, workspace: path.join(dir, 'evaluator-repo'), runnerDir };
}

/** Runs `node <args>` asynchronously (the stand-ins serving it live in this process). */
export async function runNode(
  args: string[],
  cwd: string,
  env: Record<string, string>,
): Promise<{ code: number; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => {
    stdout += d.toString('utf8');
  });
  child.stderr.on('data', (d: Buffer) => {
    stderr += d.toString('utf8');
  });
  const code = await new Promise<number>((resolve) => child.on('close', (c) => resolve(c ?? -1)));
  return { code, stdout, stderr };
}

/**
 * Runs the bundle asynchronously (the GitHub stand-in and the git server live in this process).
 * `inputs` are action inputs by name (`pull-requests`), `env` extra variables.
 */
export async function runAction(opts: {
  workspace: string;
  inputs: Record<string, string>;
  env?: Record<string, string>;
  /** A step's files (outputs, summary) go here; default the workspace's parent `runner/` folder. */
  runnerDir: string;
}): Promise<ActionRun> {
  const stamp = `${Date.now()}-${Math.random().toString(36).slice(2)}`;
  const outputFile = path.join(opts.runnerDir, `output-${stamp}`);
  const summaryFile = path.join(opts.runnerDir, `summary-${stamp}`);
  writeFileSync(outputFile, '');
  writeFileSync(summaryFile, '');
  const env: Record<string, string> = {};
  // Only the parent's plain environment: no inputs of the test process leak in.
  for (const [k, v] of Object.entries(process.env))
    if (v !== undefined && !k.startsWith('INPUT_')) env[k] = v;
  for (const [name, value] of Object.entries(opts.inputs)) env[`INPUT_${name.toUpperCase()}`] = value;
  Object.assign(env, {
    GITHUB_ACTIONS: 'true',
    GITHUB_WORKSPACE: opts.workspace,
    GITHUB_OUTPUT: outputFile,
    GITHUB_STEP_SUMMARY: summaryFile,
    RUNNER_TEMP: opts.runnerDir,
    ...opts.env,
  });
  const { code, stdout, stderr } = await runNode([BUNDLE], opts.workspace, env);
  return {
    code,
    stdout,
    stderr,
    outputs: parseOutputFile(readFileSync(outputFile, 'utf8')),
    summary: readFileSync(summaryFile, 'utf8'),
    commands: parseCommands(stdout),
  };
}

export interface PullRequestWorld {
  dir: string;
  /** The evaluator repository checkout, holding the suite at `suites/checkout/`. */
  workspace: string;
  runnerDir: string;
  api: StandIn;
  gitServer: GitHttpServer;
  gitRoot: string;
}

/**
 * For a test file: the checkout example as GitHub would hold it, set up in `beforeAll` and torn
 * down in `afterAll`. `acme/{schema,api,web}` are served over HTTP by a git server that needs
 * `token`, each with PR #7 (`multi-currency` onto `main`) in the REST stand-in; the evaluator
 * repository holds only the suite. The returned object is filled once `beforeAll` has run.
 */
export function usePullRequestWorld(prefix: string, token: string): PullRequestWorld {
  const world = {} as PullRequestWorld;
  beforeAll(async () => {
    const { dir, workspace, runnerDir } = await prepareRunner(prefix);
    Object.assign(world, { dir, workspace, runnerDir });
    const org = path.join(dir, 'org');
    generateExample(org);
    cpSync(path.join(org, 'evaluator'), path.join(workspace, 'suites', 'checkout'), { recursive: true });
    world.gitRoot = path.join(dir, 'git');
    world.gitServer = await startGitHttpServer(world.gitRoot, { token });
    world.api = await startGitHubStandIn({ tokens: { [token]: 'evaluator-bot' } });
    for (const name of ['schema', 'api', 'web']) {
      const bare = path.join(world.gitRoot, 'acme', `${name}.git`);
      cpSync(path.join(org, 'remotes', `${name}.git`), bare, { recursive: true });
      const sha = (ref: string) =>
        execFileSync('git', ['rev-parse', ref], { cwd: bare, encoding: 'utf8' }).trim();
      world.api.addRepo({ owner: 'acme', name, cloneUrl: `${world.gitServer.url}/acme/${name}.git` });
      world.api.addPullRequest({
        owner: 'acme',
        repo: name,
        number: 7,
        title: 'Prices in several currencies',
        headRef: 'multi-currency',
        headSha: sha('multi-currency'),
        baseSha: sha('main'),
      });
    }
  }, 600_000);
  afterAll(async () => {
    await world.api?.close();
    await world.gitServer?.close();
    if (world.dir) await removeTempDir(world.dir);
  });
  return world;
}

export function readReport(file: string): Report {
  if (!existsSync(file)) throw new Error(`no report at ${file}`);
  return JSON.parse(readFileSync(file, 'utf8')) as Report;
}

/** Configuration id → outcome, for comparing runs. */
export function outcomes(report: Report): Record<string, string> {
  return Object.fromEntries(report.configurations.map((c) => [c.id, c.outcome]));
}

export function errors(run: ActionRun) {
  return run.commands.filter((c) => c.command === 'error');
}
