/**
 * `tandem` as a user runs it on the embedded example: eval with reports, validate, plan, shards
 * merged back, and bad input. One unsharded evaluation fills the result cache the later runs use.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { type Report, reportSchema } from '../../src/core/report.schema.ts';
import { dockerSuite, readReport } from '../helpers/docker-suite.ts';
import {
  type CliResult,
  EXAMPLE_VERDICT,
  type Example,
  exampleCase,
  runCli,
} from '../helpers/example-cases.ts';

const docker = dockerSuite('cli-eval');
let ex: Example;
let out: string;
let evalRun: CliResult;
let report: Report;

/** `tandem eval` of the example case on the full matrix, with `outputs` (where the report goes). */
const evalFull = (...outputs: string[]) =>
  runCli(['eval', ex.caseFile, '--matrix', 'full', ...docker.cliFlags(), ...outputs]);

const outcomes = (r: Report) => Object.fromEntries(r.configurations.map((c) => [c.id, c.outcome]));

beforeAll(async () => {
  ex = await exampleCase();
  docker.track(ex.root);
  out = path.join(ex.root, 'out');
  evalRun = await evalFull(
    '--json',
    path.join(out, 'report.json'),
    '--markdown',
    path.join(out, 'report.md'),
  );
  report = await readReport(path.join(out, 'report.json'));
}, 240_000);

describe('tandem eval', () => {
  it('exits 0 on the example and prints the verdict', () => {
    expect(evalRun.code, evalRun.stderr).toBe(0);
    expect(evalRun.stderr).toContain('8 configuration(s), matrix full');
    expect(evalRun.stderr).toContain('Verdict: RESOLVED');
    expect(evalRun.stderr).toContain('Jointly necessary: yes');
  });

  it('writes a JSON report that validates against the report schema', () => {
    expect(report.outcome).toBe('resolved');
    expect(report.verdict).toMatchObject(EXAMPLE_VERDICT);
    expect(report.configurations).toHaveLength(8);
    expect(report.name).toBe('acme-multi-currency');
  });

  it('writes a Markdown report with the matrix table', async () => {
    const md = await readFile(path.join(out, 'report.md'), 'utf8');
    expect(md).toContain('(full matrix).');
    expect(md).toMatch(/\| Configuration \| schema \| api \| web \| Result \|/);
    expect(md).toMatch(/\| `full` \| ✓ \| ✓ \| ✓ \| ✅ passes \| 6\/6 \|/);
    expect(md).toMatch(/\| `base` \| · \| · \| · \| ➖ fails, as expected \| 3\/6 \|/);
    expect(md.match(/^\| `[a-z+]+` \|/gm)).toHaveLength(8);
  });
});

describe('tandem eval --json - --quiet', () => {
  it('puts the report alone on stdout and only the verdict line on stderr', async () => {
    const r = await evalFull('--json', '-', '--quiet');
    expect(r.code, r.stderr).toBe(0);
    const piped = reportSchema.parse(JSON.parse(r.stdout));
    expect(piped.verdict).toMatchObject(EXAMPLE_VERDICT);
    expect(outcomes(piped)).toEqual(outcomes(report));
    const lines = r.stderr
      .trimEnd()
      .split('\n')
      .filter((l) => !l.startsWith('tandem: compiling the CLI'));
    expect(lines).toEqual([expect.stringMatching(/^Verdict: RESOLVED/)]);
  });
});

describe('tandem validate', () => {
  it('passes on the example (resolved, jointly necessary, not flaky over reruns)', async () => {
    const r = await runCli(['validate', ex.caseFile, ...docker.cliFlags(), '--quiet']);
    expect(r.code, r.stderr + r.stdout).toBe(0);
    expect(r.stdout).toContain('valid: acme-multi-currency is resolved and jointly necessary');
  });

  it('with --json -, stdout is the report and the valid line goes to stderr', async () => {
    const r = await runCli(['validate', ex.caseFile, ...docker.cliFlags(), '--quiet', '--json', '-']);
    expect(r.code, r.stderr).toBe(0);
    expect(reportSchema.parse(JSON.parse(r.stdout)).matrix.reruns).toBe(2);
    expect(r.stderr).toContain('valid: acme-multi-currency is resolved and jointly necessary');
  });
});

describe('tandem plan and sharded runs', () => {
  it('prints the plan with shards as JSON', async () => {
    const r = await runCli(['plan', ex.caseFile, '--matrix', 'full', '--shards', '2']);
    expect(r.code, r.stderr).toBe(0);
    const plan = JSON.parse(r.stdout) as {
      mode: string;
      configurations: Array<{ id: string; applied: string[]; role: string }>;
      shards: Array<{ shard: string; configurations: string[] }>;
    };
    expect(plan.mode).toBe('full');
    expect(plan.configurations.map((c) => c.id)).toEqual(report.configurations.map((c) => c.id));
    expect(plan.shards.map((s) => s.shard)).toEqual(['1/2', '2/2']);
    const all = plan.shards.flatMap((s) => s.configurations);
    expect(all.sort()).toEqual(plan.configurations.map((c) => c.id).sort());
    for (const s of plan.shards) expect(s.configurations.length).toBeGreaterThan(0);
  });

  it('caps the shards at the number of configurations, as the Action does', async () => {
    const r = await runCli(['plan', ex.caseFile, '--matrix', 'full', '--shards', '200']);
    expect(r.code, r.stderr).toBe(0);
    const plan = JSON.parse(r.stdout) as {
      configurations: unknown[];
      shards: Array<{ shard: string; configurations: string[] }>;
    };
    const n = plan.configurations.length;
    expect(plan.shards.map((s) => s.shard)).toEqual(Array.from({ length: n }, (_, k) => `${k + 1}/${n}`));
    for (const s of plan.shards) expect(s.configurations).toHaveLength(1);
  });

  it('merges shard reports into the verdict and outcomes of an unsharded run', async () => {
    const shard = (i: number) =>
      runCli([
        'eval',
        ex.caseFile,
        '--matrix',
        'full',
        ...docker.cliFlags(),
        '--quiet',
        '--shard',
        `${i}/2`,
        '--json',
        path.join(out, `shard-${i}.json`),
      ]);
    const [one, two] = await Promise.all([shard(1), shard(2)]);
    expect(one.code, one.stderr).toBe(0);
    expect(two.code, two.stderr).toBe(0);
    const partials = await Promise.all([1, 2].map((i) => readReport(path.join(out, `shard-${i}.json`))));
    for (const p of partials) expect(p.partial).toBeDefined();
    expect(partials[0]!.configurations.length + partials[1]!.configurations.length).toBe(8);

    const merged = await runCli([
      'merge',
      path.join(out, 'shard-1.json'),
      path.join(out, 'shard-2.json'),
      '--json',
      path.join(out, 'merged.json'),
      '--markdown',
      path.join(out, 'merged.md'),
    ]);
    expect(merged.code, merged.stderr).toBe(0);
    const m = await readReport(path.join(out, 'merged.json'));
    expect(m.partial).toBeUndefined();
    expect(m.outcome).toBe(report.outcome);
    expect(m.verdict).toEqual(report.verdict);
    expect(outcomes(m)).toEqual(outcomes(report));
    expect(m.tests_status).toEqual(report.tests_status);
    expect(await readFile(path.join(out, 'merged.md'), 'utf8')).toContain('(full matrix).');
  });
});

describe('bad input exits 2', () => {
  it('names the case file and the field', async () => {
    const bad = path.join(ex.root, 'bad-case.yml');
    await writeFile(
      bad,
      [
        'name: broken',
        'suite: evaluator/suite.yml',
        'targets:',
        `  - { repo: acme/schema, url: ${ex.remotes.schema}, base: main, head: multi-currency }`,
        'context:',
        `  - { repo: acme/web, url: ${ex.remotes.web} }`,
        '',
      ].join('\n'),
    );
    const r = await runCli(['eval', bad, ...docker.cliFlags()]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(bad);
    expect(r.stderr).toContain('context[0].ref');
  });

  it('names a bad flag', async () => {
    const r = await runCli(['eval', ex.caseFile, '--matrix', 'nope', ...docker.cliFlags()]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^tandem: option --matrix: /m);
  });
});
