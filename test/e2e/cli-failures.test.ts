/**
 * `tandem` exit codes when the change is not good or the machinery fails: an incomplete change
 * (1), listed tests no configuration reported (2: an invalid suite, said with the field and with
 * ids the runs did report), validate on a change
 * with a partial that already passes (1), no Docker engine (3, the cause said once and first),
 * and Ctrl-C during a hanging test (130, no container left behind). An unknown ref in the case
 * is bad input: cli-case-mistakes.test.ts.
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { beforeAll, describe, expect, it } from 'vitest';
import { dockerSuite, readReport } from '../helpers/docker-suite.ts';
import {
  type Example,
  exampleCase,
  exampleSuite,
  exampleTarget,
  hangGroup,
  runCli,
  SANDBOX_IMAGE,
  shellCase,
  startCli,
  writeCase,
  writeExampleSuite,
} from '../helpers/example-cases.ts';
import { commitOn, createRepo } from '../helpers/git-fixtures.ts';

const docker = dockerSuite('cli-failures');
let ex: Example;

/** Ids of Tandem containers (label tandem=1) whose mounts come from `root`: this test's only. */
function containersFrom(root: string): string[] {
  const ids = execFileSync('docker', ['ps', '-aq', '--filter', 'label=tandem=1'], { encoding: 'utf8' })
    .split('\n')
    .filter(Boolean);
  return ids.filter((id) => {
    try {
      const sources = execFileSync(
        'docker',
        ['inspect', '--format', '{{range .Mounts}}{{.Source}} {{end}}', id],
        {
          encoding: 'utf8',
        },
      );
      return sources.includes(root);
    } catch {
      return false; // removed between ps and inspect
    }
  });
}

beforeAll(async () => {
  ex = await exampleCase();
  docker.track(ex.root);
}, 240_000);

describe('tandem eval exit codes', () => {
  it('exits 1 on an incomplete change', async () => {
    const c = await writeCase(ex.root, 'case-incomplete.yml', {
      name: 'missing-web',
      suite: 'evaluator/suite.yml',
      targets: [exampleTarget(ex, 'schema'), exampleTarget(ex, 'api')],
      context: [{ repo: 'acme/web', url: ex.remotes.web, ref: 'main' }],
    });
    const json = path.join(ex.root, 'incomplete.json');
    const r = await runCli(['eval', c.caseFile, '--matrix', 'full', ...docker.cliFlags(), '--json', json]);
    expect(r.code, r.stderr).toBe(1);
    const report = await readReport(json);
    expect(report.outcome).toBe('unresolved');
    expect(report.verdict.resolved).toBe(false);
    expect(r.stderr).toContain('Verdict: NOT RESOLVED');
  });
});

describe('listed tests no configuration reported', () => {
  it('is an invalid suite: exit 2 naming the suite field, never "not resolved"; the JSON report keeps no reported id', async () => {
    const suite = await writeExampleSuite(ex, 'suite-misspelt.yml', {
      ...exampleSuite(['schema']),
      fail_to_pass: ['schema::nope::misspelt'],
      pass_to_pass: [],
    });
    const c = await writeCase(ex.root, 'case-misspelt.yml', {
      name: 'misspelt-ids',
      suite,
      targets: [exampleTarget(ex, 'schema')],
    });
    const json = path.join(ex.root, 'misspelt.json');
    const r = await runCli(['eval', c.caseFile, ...docker.cliFlags(), '--json', json]);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain('Verdict: INVALID SUITE (not a verdict on the code)');
    expect(r.stderr).not.toContain('NOT RESOLVED');
    expect(r.stderr).toContain(
      `tandem: ${c.caseFile}: suite "${exampleSuite(['schema']).name}": field "fail_to_pass": 1 listed test id in fail_to_pass was never reported by any configuration, not even all-base`,
    );
    expect(r.stderr).toMatch(/: schema::nope::misspelt\n/);
    const said =
      /1 listed test was never reported \(the suite is invalid, nothing was judged\), e\.g\. `schema::nope::misspelt`; reported ids look like `(schema::[^`]+)`/.exec(
        r.stderr,
      );
    expect(said, r.stderr).not.toBeNull();
    const report = await readReport(json);
    expect(report.outcome).toBe('error');
    expect(report.invalidSuite).toMatchObject({
      fields: ['fail_to_pass'],
      unmatched: ['schema::nope::misspelt'],
    });
    // The example is an id the all-base run reported; the report on disk does not gain it.
    expect(JSON.stringify(report)).not.toContain(said![1]!);
  });
});

describe('no Docker engine', () => {
  it('exits 3 saying the cause first, once, before any configuration runs', async () => {
    const socket = path.join(ex.root, 'no-engine', 'docker.sock');
    const json = path.join(ex.root, 'no-engine.json');
    const r = await runCli(['eval', ex.caseFile, ...docker.cliFlags(), '--json', json], {
      DOCKER_HOST: `unix://${socket}`,
    });
    expect(r.code, r.stderr).toBe(3);
    const lines = r.stderr.split('\n').filter((l) => l.startsWith('tandem: ') && !l.includes('compiling'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^tandem: Docker is not reachable at /);
    expect(lines[0]).toContain(`${socket} (connect ENOENT): start it`);
    expect(r.stderr.match(/not reachable/g)).toHaveLength(1);
    // Nothing ran: no matrix lines, no summary.
    expect(r.stderr).not.toContain('configuration(s)');
    expect(r.stderr).not.toContain('Verdict:');
  });
});

describe('tandem validate', () => {
  it('fails, naming the configuration, when a partial already passes', async () => {
    const docs = await createRepo(path.join(ex.root, 'remotes'), 'docs', { 'README.md': '# Docs\n' });
    await commitOn(docs, 'multi-currency', { 'README.md': '# Docs\n\nSeveral currencies.\n' });
    const suite = await writeExampleSuite(ex, 'suite-schema.yml', exampleSuite(['schema']));
    const c = await writeCase(ex.root, 'case-readme.yml', {
      name: 'readme-only',
      suite,
      targets: [
        exampleTarget(ex, 'schema'),
        { repo: 'acme/docs', url: docs.url, base: 'main', head: 'multi-currency' },
      ],
    });
    const r = await runCli(['validate', c.caseFile, ...docker.cliFlags(), '--quiet']);
    expect(r.code, r.stderr + r.stdout).toBe(1);
    expect(r.stdout).toContain('invalid: readme-only');
    expect(r.stdout).toContain(
      'not jointly necessary: configuration "schema" (only acme/schema applied) already passes',
    );
  });
});

describe('Ctrl-C', () => {
  it('exits 130 during a hanging test and leaves no container behind', async () => {
    const c = await shellCase({
      name: 'hangs',
      repos: [{ name: 'app', base: { 'app.txt': 'alpha\n' }, head: { 'feature.txt': 'on\n' } }],
      suite: { name: 'hang-suite', image: SANDBOX_IMAGE, tests: [hangGroup(600)] },
      hidden: {},
    });
    docker.track(c.root);
    const ownCache = path.join(c.root, 'cache');
    const run = startCli([
      'eval',
      c.caseFile,
      '--cache-dir',
      ownCache,
      // Workspaces inside our own folder, so the containers below are recognisably ours.
      '--work-dir',
      path.join(ownCache, 'work'),
      '--jobs',
      '2',
    ]);
    // Wait (bounded) until a configuration's container is up, then interrupt.
    let seen: string[] = [];
    for (let i = 0; i < 120 && seen.length === 0; i++) {
      await sleep(250);
      seen = containersFrom(ownCache);
    }
    expect(seen.length).toBeGreaterThan(0);
    run.child.kill('SIGINT');
    const r = await run.done;
    expect(r.code, r.stderr).toBe(130);
    expect(r.stderr).toContain('interrupted');
    // Said as an interruption with what the cache keeps, not as an infrastructure error.
    expect(r.stderr).toContain('tandem: interrupted: no configuration (of 2) finished, so none was cached');
    expect(r.stderr).not.toContain('infrastructure error');
    expect(containersFrom(ownCache)).toEqual([]);
  });
});
