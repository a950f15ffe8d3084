/**
 * The Action's TypeScript entry under GitHub's own local runner, `@github/local-action`, as
 * docs/action.md tells a developer to run it: `local-action run . src/action/main.ts .env`. The
 * tool loads the `.env`, stubs `@actions/core` / `@actions/github`, imports main.ts and calls its
 * `run()`. Here it evaluates real pull requests read from the GitHub stand-in and cloned over
 * HTTP, in Docker, and publishes through the stubbed toolkit.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, readReport, runNode, usePullRequestWorld } from './action-harness.ts';

const TOKEN = 'ghp_localActionToken123';
const LOCAL_ACTION = path.join(ROOT, 'node_modules', '@github', 'local-action', 'bin', 'local-action.js');

const world = usePullRequestWorld('tandem-local-action-', TOKEN);

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
  const { code, stdout, stderr } = await runNode(
    [LOCAL_ACTION, 'run', ROOT, 'src/action/main.ts', envFile],
    ROOT,
    env,
  );
  const log = stdout + stderr;
  const outputs: Record<string, string> = {};
  for (const m of log.matchAll(/^::set-output name=([\w-]+)::(.*)$/gm)) outputs[m[1]!] = m[2]!;
  return { code, log, outputs };
}

describe('the Action under @github/local-action', () => {
  it('evaluates pull requests from a .env like the documented one, through the stubbed toolkit', async () => {
    const envFile = path.join(world.runnerDir, '.env');
    const summary = path.join(world.runnerDir, 'summary.md');
    writeFileSync(
      envFile,
      [
        'INPUT_PULL-REQUESTS="acme/schema#7 acme/api#7 acme/web#7"',
        'INPUT_SUITE=suites/checkout/suite.yml',
        'INPUT_MATRIX=leave-one-out',
        `INPUT_TOKEN=${TOKEN}`,
        `GITHUB_WORKSPACE=${world.workspace}`,
        `GITHUB_API_URL=${world.api.url}`,
        `GITHUB_STEP_SUMMARY=${summary}`,
        `TANDEM_CACHE_DIR=${path.join(world.dir, 'cache')}`,
        '',
      ].join('\n'),
    );
    const r = await localAction(envFile);
    expect(r.code, r.log).toBe(0);
    expect(r.log).toContain('Running Action');
    expect(r.outputs.verdict, r.log).toBe('resolved');
    expect(r.outputs.resolved).toBe('true');
    // The PRs were read from the stand-in with the .env's API URL and token.
    const reads = world.api.requests.filter((q) => /^\/repos\/acme\/\w+\/pulls\/7$/.test(q.path));
    expect(reads.map((q) => q.status)).toEqual([200, 200, 200]);
    const reportPath = r.outputs['report-path']!;
    expect(reportPath).toBe(path.join(world.workspace, 'tandem-report.json'));
    const report = readReport(reportPath);
    expect(report.outcome).toBe('resolved');
    expect(report.matrix.mode).toBe('leave-one-out');
    expect(readFileSync(reportPath, 'utf8')).not.toContain(TOKEN);
    expect(readFileSync(summary, 'utf8')).toContain('linked change acme/schema#7 acme/api#7 acme/web#7');
  });

  it('without a token in the .env, action.yml’s `github.token` default is no token: bad input', async () => {
    const envFile = path.join(world.runnerDir, 'no-token.env');
    writeFileSync(
      envFile,
      [
        // Quoted: unquoted, dotenv reads `#7` as a comment.
        'INPUT_PULL-REQUESTS="acme/schema#7"',
        'INPUT_SUITE=suites/checkout/suite.yml',
        `GITHUB_WORKSPACE=${world.workspace}`,
        `GITHUB_API_URL=${world.api.url}`,
        '',
      ].join('\n'),
    );
    const before = world.api.requests.length;
    const r = await localAction(envFile);
    expect(r.outputs.verdict, r.log).toBe('error');
    expect(r.log).toContain('Tandem: bad input, no verdict: input "token": required with "pull-requests"');
    expect(world.api.requests.length).toBe(before);
  });
});
