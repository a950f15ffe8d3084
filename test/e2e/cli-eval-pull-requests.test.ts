/**
 * `tandem eval --pr … --config tandem.yml` reproduces an App verdict on a developer's machine:
 * the App evaluates a linked set through the GitHub stand-in (real Docker), then the CLI reads the
 * same PRs from the same stand-in with a token and must build the same case (targets at the same
 * heads and bases, the suite's other repository as context) and print the same verdict.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { type Executor, type LinkedChangeSpec, LocalExecutor } from '../../src/app/executors/executor.ts';
import type { Report } from '../../src/core/report.schema.ts';
import { hostDefaults } from '../../src/engine/evaluation-request.ts';
import { dockerSuite, readReport } from '../helpers/docker-suite.ts';
import { runCli } from '../helpers/example-cases.ts';
import { commitOn, makeTempDir } from '../helpers/git-fixtures.ts';
import {
  API_BUG,
  API_OK,
  HIDDEN_TEST,
  openPull,
  orgConfig,
  SCHEMA_OK,
  SUITE,
  sendPull,
  settle,
  tandemChecks,
  useWorld,
  type World,
} from './app-harness.ts';

const docker = dockerSuite('cli-eval-prs');
const startWorld = useWorld();

/** The App's own executor, recording the case it built and the report it got. */
function recordingExecutor(): Executor & { specs: LinkedChangeSpec[]; reports: Report[] } {
  const inner = new LocalExecutor({ cacheDir: docker.cacheDir, host: hostDefaults(process.env), jobs: 2 });
  const specs: LinkedChangeSpec[] = [];
  const reports: Report[] = [];
  return {
    specs,
    reports,
    async run(change, signal, onEvent) {
      specs.push(change);
      const report = await inner.run(change, signal, onEvent);
      reports.push(report);
      return report;
    },
  };
}

/** A checkout of the evaluator repository, as the org's developers have it, and the org's tandem.yml. */
async function evaluatorCheckout(): Promise<{ dir: string; config: string }> {
  const dir = docker.track(await makeTempDir('tandem-evaluator-'));
  await mkdir(path.join(dir, 'suites/checkout/hidden'), { recursive: true });
  await writeFile(path.join(dir, 'suites/checkout/suite.yml'), SUITE);
  await writeFile(path.join(dir, 'suites/checkout/hidden/checkout.test.js'), HIDDEN_TEST);
  const config = path.join(dir, 'tandem.yml');
  await writeFile(config, orgConfig());
  return { dir, config };
}

async function cliOnPulls(w: World, pulls: string[], extra: string[] = []) {
  const { dir, config } = await evaluatorCheckout();
  const json = path.join(dir, 'report.json');
  const cache = docker.track(await makeTempDir('tandem-cli-prs-cache-'));
  const run = await runCli(
    [
      'eval',
      ...pulls.flatMap((p) => ['--pr', p]),
      '--config',
      config,
      '--evaluator-dir',
      dir,
      '--json',
      json,
      '--cache-dir',
      cache,
      '--jobs',
      '2',
      ...extra,
    ],
    { GITHUB_TOKEN: w.standIn.mintToken(w.installationId), GITHUB_API_URL: w.standIn.url },
  );
  return { run, json };
}

const sameCase = (r: Report) => ({
  targets: r.targets.map((t) => ({ repo: t.repo, base: t.base.sha, head: t.head?.sha, kind: t.head?.kind })),
  context: r.context.map((c) => ({ repo: c.repo, sha: c.sha })),
});

describe('tandem eval --pr: the App verdict on this machine', () => {
  it('builds the case the App built and prints its verdict (resolved, then not resolved)', async () => {
    const exec = recordingExecutor();
    const w = await startWorld({ executor: exec });
    const schema = await openPull(w, 'schema', SCHEMA_OK, 'Adds total.');
    const api = await openPull(w, 'api', { 'index.js': API_OK }, 'Depends-On: acme/schema#1');
    await sendPull(w, 'opened', 'schema', schema.number);
    await sendPull(w, 'opened', 'api', api.number);
    await settle(w);
    expect(tandemChecks(w, 'api', api.head.sha)[0]!.conclusion).toBe('success');
    const appReport = exec.reports.at(-1)!;
    expect(exec.specs.at(-1)!.context.map((c) => c.repo)).toEqual(['acme/web']);

    const { run, json } = await cliOnPulls(w, ['acme/api#1', 'https://github.com/acme/schema/pull/1']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain('Verdict: RESOLVED');
    const cliReport = await readReport(json);
    // The same workspace: same repositories, heads, bases and context commits; the same matrix and verdict.
    const byRepo = (r: Report) => ({
      ...sameCase(r),
      targets: sameCase(r).targets.sort((a, b) => a.repo.localeCompare(b.repo)),
    });
    expect(byRepo(cliReport)).toEqual(byRepo(appReport));
    expect(cliReport.matrix.mode).toBe(appReport.matrix.mode);
    expect(cliReport.verdict).toEqual(appReport.verdict);
    // The token the CLI read with is in no text of the report.
    expect(JSON.stringify(cliReport)).not.toContain(w.standIn.mintToken(w.installationId).slice(0, 12));

    // A push that breaks the consumer: the App fails the set, and so does the CLI.
    const bug = await commitOn(w.repos.api!, 'feature', { 'index.js': API_BUG });
    w.standIn.updatePullRequest('acme', 'api', 1, { headSha: bug });
    await sendPull(w, 'synchronize', 'api', 1);
    await settle(w);
    expect(tandemChecks(w, 'api', bug)[0]!.conclusion).toBe('failure');
    const again = await cliOnPulls(w, ['acme/api#1', 'acme/schema#1']);
    expect(again.run.code, again.run.stderr).toBe(1);
    expect(again.run.stderr).toContain('Verdict: NOT RESOLVED');
    expect((await readReport(again.json)).verdict).toEqual(exec.reports.at(-1)!.verdict);
  });

  it('says what is wrong with the input, exit 2, before reading anything', async () => {
    const w = await startWorld();
    const { config, dir } = await evaluatorCheckout();
    const token = { GITHUB_TOKEN: w.standIn.mintToken(w.installationId), GITHUB_API_URL: w.standIn.url };
    const noToken = await runCli(['eval', '--pr', 'acme/api#1', '--config', config], {
      GITHUB_TOKEN: '',
      GH_TOKEN: '',
    });
    expect(noToken.code).toBe(2);
    expect(noToken.stderr).toContain('GITHUB_TOKEN: required with --pr');
    const both = await runCli(['eval', 'case.yml', '--pr', 'acme/api#1'], token);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('give a case file or --pr, not both');
    const badRef = await runCli(['eval', '--pr', 'acme/api', '--config', config], token);
    expect(badRef.code).toBe(2);
    expect(badRef.stderr).toContain('option --pr: expected "owner/repo#N" or a PR URL, got "acme/api"');
    const missing = await runCli(
      ['eval', '--pr', 'acme/api#99', '--config', config, '--evaluator-dir', dir],
      token,
    );
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('option --pr: acme/api#99');
    const uncovered = await runCli(['eval', '--pr', 'acme/other#1', '--config', config], token);
    expect(uncovered.code).toBe(2);
    expect(uncovered.stderr).toContain('no suite in --config covers acme/other');
  });
});
