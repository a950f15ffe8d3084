/**
 * The Action's TypeScript entry under GitHub's own local runner, `@github/local-action`, as
 * docs/action.md tells a developer to run it: `local-action run . src/action/main.ts .env`. The
 * tool loads the `.env`, stubs `@actions/core` / `@actions/github`, imports main.ts and calls its
 * `run()`. Here it evaluates real pull requests read from the GitHub stand-in and cloned over
 * HTTP, in Docker, and publishes through the stubbed toolkit.
 */
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeTempDir } from '../helpers/git-fixtures.ts';
import type { GitHttpServer } from '../support/git-http-server.ts';
import type { StandIn } from '../support/github-standin/index.ts';
import { prepareRunner, ROOT, readReport, startPullRequestWorld } from './action-harness.ts';

const TOKEN = 'ghp_localActionToken123';
const LOCAL_ACTION = path.join(ROOT, 'node_modules', '@github', 'local-action', 'bin', 'local-action.js');

let dir: string;
let workspace: string;
let runnerDir: string;
let api: StandIn;
let gitServer: GitHttpServer;

beforeAll(async () => {
  ({ dir, workspace, runnerDir } = await prepareRunner('tandem-local-action-'));
  ({ api, gitServer } = await startPullRequestWorld(dir, workspace, TOKEN));
}, 600_000);

afterAll(async () => {
  await api?.close();
  await gitServer?.close();
  if (dir) await removeTempDir(dir);
});

interface LocalRun {
  code: number;
  log: string;
  /** What the stubbed `core.setOutput` logged: `::set-output name=x::value`. */
  outputs: Record<string, string>;
}

/** `local-action run <repo> src/action/main.ts <envFile>` from the repository root, as documented. */
async function localAction(envFile: string): Promise<LocalRun> {
  const env: Record<string, string> = {};
  // The parent's plain environment without anything a runner would set: the .env supplies it.
  for (const [k, v] of Object.entries(process.env))
    if (v !== undefined && !/^(INPUT_|GITHUB_|RUNNER_)/.test(k)) env[k] = v;
  env.NO_COLOR = '1';
  const child = spawn(process.execPath, [LOCAL_ACTION, 'run', ROOT, 'src/action/main.ts', envFile], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  child.stdout.on('data', (d: Buffer) => {
    log += d.toString('utf8');
  });
  child.stderr.on('data', (d: Buffer) => {
    log += d.toString('utf8');
  });
  const code = await new Promise<number>((resolve) => child.on('close', (c) => resolve(c ?? -1)));
  const outputs: Record<string, string> = {};
  for (const m of log.matchAll(/^::set-output name=([\w-]+)::(.*)$/gm)) outputs[m[1]!] = m[2]!;
  return { code, log, outputs };
}

describe('the Action under @github/local-action', () => {
  it('evaluates pull requests from a .env like the documented one, through the stubbed toolkit', async () => {
    const envFile = path.join(runnerDir, '.env');
    const summary = path.join(runnerDir, 'summary.md');
    writeFileSync(
      envFile,
      [
        'INPUT_PULL-REQUESTS="acme/schema#7 acme/api#7 acme/web#7"',
        'INPUT_SUITE=suites/checkout/suite.yml',
        'INPUT_MATRIX=leave-one-out',
        `INPUT_TOKEN=${TOKEN}`,
        `GITHUB_WORKSPACE=${workspace}`,
        `GITHUB_API_URL=${api.url}`,
        `GITHUB_STEP_SUMMARY=${summary}`,
        `TANDEM_CACHE_DIR=${path.join(dir, 'cache')}`,
        '',
      ].join('\n'),
    );
    const r = await localAction(envFile);
    expect(r.code, r.log).toBe(0);
    expect(r.log).toContain('Running Action');
    expect(r.outputs.verdict, r.log).toBe('resolved');
    expect(r.outputs.resolved).toBe('true');
    // The PRs were read from the stand-in with the .env's API URL and token.
    const reads = api.requests.filter((q) => /^\/repos\/acme\/\w+\/pulls\/7$/.test(q.path));
    expect(reads.map((q) => q.status)).toEqual([200, 200, 200]);
    const reportPath = r.outputs['report-path']!;
    expect(reportPath).toBe(path.join(workspace, 'tandem-report.json'));
    const report = readReport(reportPath);
    expect(report.outcome).toBe('resolved');
    expect(report.matrix.mode).toBe('leave-one-out');
    expect(readFileSync(reportPath, 'utf8')).not.toContain(TOKEN);
    expect(readFileSync(summary, 'utf8')).toContain('linked change acme/schema#7 acme/api#7 acme/web#7');
  });

  it('without a token in the .env, action.yml’s `github.token` default is no token: bad input', async () => {
    const envFile = path.join(runnerDir, 'no-token.env');
    writeFileSync(
      envFile,
      [
        // Quoted: unquoted, dotenv reads `#7` as a comment.
        'INPUT_PULL-REQUESTS="acme/schema#7"',
        'INPUT_SUITE=suites/checkout/suite.yml',
        `GITHUB_WORKSPACE=${workspace}`,
        `GITHUB_API_URL=${api.url}`,
        '',
      ].join('\n'),
    );
    const before = api.requests.length;
    const r = await localAction(envFile);
    expect(r.outputs.verdict, r.log).toBe('error');
    expect(r.log).toContain('Tandem: bad input, no verdict: input "token": required with "pull-requests"');
    expect(api.requests.length).toBe(before);
  });
});
