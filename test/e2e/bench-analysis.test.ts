/**
 * `tandem bench` as a user runs it, on published rows with real Docker: `--attempts` with pass@1
 * and pass@k, `bench compare` with its McNemar line and `--max-regression` gate (failing at
 * exactly the threshold), `bench regrade` after fixing the test-name mapping (with the container
 * engine out of reach) and keeping a diagnosis, and the exit codes of a run missing predictions
 * and of a validation that leaves nothing valid (its names warning said on stderr).
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { instanceReportSchema, runSummarySchema } from '../../src/core/bench-report.schema.ts';
import { dockerSuite } from '../helpers/docker-suite.ts';
import { runCli } from '../helpers/example-cases.ts';
import { makeTempDir } from '../helpers/git-fixtures.ts';
import { type PublishedFixture, publishedFixture } from '../helpers/published-fixtures.ts';

const docker = dockerSuite('bench-analysis');
let fx: PublishedFixture;
const runs = () => path.join(fx.root, 'runs');

function bench(sub: string, ...args: string[]) {
  return runCli(['bench', sub, ...args]);
}
function run(runId: string, predictions: string, ...extra: string[]) {
  return bench(
    'run',
    '--instances',
    fx.sweBench,
    '--suites',
    fx.suites,
    '--predictions',
    predictions,
    '--run-id',
    runId,
    '--runs-dir',
    runs(),
    '--quiet',
    ...docker.cliFlags(),
    ...extra,
  );
}
async function predictions(name: string, model: string, patches: Record<string, string>): Promise<string> {
  return fx.writeFile(
    name,
    Object.entries(patches)
      .map(([id, patch]) =>
        JSON.stringify({ instance_id: id, model_name_or_path: model, model_patch: patch }),
      )
      .join('\n'),
  );
}
const summary = async (runId: string, model: string) =>
  runSummarySchema.parse(
    JSON.parse(await readFile(path.join(runs(), runId, `${model}.${runId}.json`), 'utf8')),
  );

let wrong: string;
beforeAll(async () => {
  fx = await publishedFixture(docker.track(await makeTempDir('tandem-bench-analysis-')));
  wrong = fx.gold.replace('+new', '+other');
}, 120_000);

describe('bench run --attempts and bench compare', () => {
  it('runs each prediction k times; compare pairs two runs and gates on --max-regression', async () => {
    const a = await predictions('a.jsonl', 'agent-a', { 'acme__clock-1': fx.gold, 'acme__clock-2': fx.gold });
    const ra = await run('a', a, '--attempts', '2');
    expect(ra.stderr).toBe('');
    expect(ra.code).toBe(0);
    expect(ra.stdout).toMatch(/^agent-a: 2\/2 resolved \(95% CI 34\.2–100%, pass@1 100%, pass@2 100%\)/);
    const s = await summary('a', 'agent-a');
    expect(s.metrics).toMatchObject({
      attempts: 2,
      pass_at_1: 1,
      pass_at_k: 1,
      case_success_ci95: { low: 0.3424, high: 1 },
    });
    const one = instanceReportSchema.parse(
      JSON.parse(await readFile(path.join(runs(), 'a', 'agent-a', 'acme__clock-1', 'report.json'), 'utf8')),
    )['acme__clock-1']!;
    expect(one.tandem.attempts_resolved).toEqual([true, true]);
    // Each attempt is its own run of the full configuration.
    expect((await readdir(path.join(runs(), 'a', 'agent-a', 'acme__clock-1', 'outputs'))).sort()).toEqual([
      'full',
      'full.1',
    ]);

    /** `bench compare` of run a against run b, gated at `maxRegression`. */
    const compareAB = (maxRegression: string, ...more: string[]) =>
      bench(
        'compare',
        path.join(runs(), 'a'),
        path.join(runs(), 'b'),
        '--max-regression',
        maxRegression,
        ...more,
      );
    const b = await predictions('b.jsonl', 'agent-b', { 'acme__clock-1': fx.gold, 'acme__clock-2': wrong });
    expect((await run('b', b, '--diagnose')).code).toBe(0);
    const gate = await compareAB('0.25', '--json', path.join(fx.root, 'compare.json'));
    expect(gate.stdout).toContain('resolved by A only: 1 acme__clock-2');
    expect(gate.stdout).toContain('resolved by B only: 0');
    expect(gate.stdout).toContain('both: 1, neither: 0; exact McNemar p = 1');
    expect(gate.stdout).toContain('B − A: −50% of instances — worse than allowed (--max-regression 0.25)');
    expect(gate.code).toBe(1);
    expect(JSON.parse(await readFile(path.join(fx.root, 'compare.json'), 'utf8'))).toMatchObject({
      modelA: 'agent-a',
      modelB: 'agent-b',
      onlyA: ['acme__clock-2'],
      regression: 0.5,
      regressed: true,
    });
    // At exactly the threshold it fails, as the help says ("this share … or more").
    const exact = await compareAB('0.5');
    expect(exact.stdout).toContain('worse than allowed (--max-regression 0.5)');
    expect(exact.code).toBe(1);
    const lenient = await compareAB('0.51');
    expect(lenient.code).toBe(0);
    expect(lenient.stdout).toContain('within --max-regression 0.51');
  });
});

describe('bench regrade', () => {
  it('grades stored results again with a fixed name mapping, without containers', async () => {
    const unmapped = await fx.writeSuiteMap('unmapped', { jest: { names: false } });
    const first = await bench(
      'run',
      '--instances',
      fx.sweBench,
      '--suites',
      unmapped,
      '--predictions',
      'gold',
      '--run-id',
      'g',
      '--runs-dir',
      runs(),
      '--quiet',
      ...docker.cliFlags(),
    );
    expect(first.code).toBe(0);
    expect(first.stderr).toContain('gold acme__clock-1: 4 of 4 listed test(s) were never reported');
    expect((await summary('g', 'gold')).resolved_ids).toEqual(['acme__clock-2']);
    // No container engine: regrading reads the stored runs only.
    const regraded = await runCli(
      ['bench', 'regrade', path.join(runs(), 'g'), '--instances', fx.sweBench, '--suites', fx.suites],
      { DOCKER_HOST: 'unix:///nonexistent/docker.sock' },
    );
    expect(regraded.stderr).toBe('');
    expect(regraded.code).toBe(0);
    expect(regraded.stdout).toContain('gold acme__clock-1: unresolved → resolved');
    const after = runSummarySchema.parse(
      JSON.parse(await readFile(path.join(runs(), 'g.regraded', 'gold.g.json'), 'utf8')),
    );
    expect(after.resolved_ids).toEqual(['acme__clock-1', 'acme__clock-2']);
    // The old reports stay as they were.
    expect((await summary('g', 'gold')).resolved_ids).toEqual(['acme__clock-2']);
  });
});

describe('bench regrade keeps the diagnosis', () => {
  it('keeps the diagnosis of a prediction that stays unresolved (its swap runs are not stored)', async () => {
    const entryOf = async (dir: string) =>
      instanceReportSchema.parse(
        JSON.parse(await readFile(path.join(runs(), dir, 'agent-b', 'acme__clock-2', 'report.json'), 'utf8')),
      )['acme__clock-2']!;
    const before = await entryOf('b');
    expect(before.tandem.outcome).toBe('unresolved');
    expect(before.tandem.diagnosis?.swaps).toEqual([{ repo: 'acme/clock', outcome: 'fail' }]);
    const r = await runCli(
      ['bench', 'regrade', path.join(runs(), 'b'), '--instances', fx.sweBench, '--suites', fx.suites],
      { DOCKER_HOST: 'unix:///nonexistent/docker.sock' },
    );
    expect(r.code, r.stderr).toBe(0);
    const after = await entryOf('b.regraded');
    expect(after.tandem.outcome).toBe('unresolved');
    expect(after.tandem.diagnosis).toEqual(before.tandem.diagnosis);
    const s = runSummarySchema.parse(
      JSON.parse(await readFile(path.join(runs(), 'b.regraded', 'agent-b.b.json'), 'utf8')),
    );
    expect(s.metrics.diagnosis).toEqual((await summary('b', 'agent-b')).metrics.diagnosis);
  });
});

describe('exit codes', () => {
  it('a run missing predictions exits 1 and lists them', async () => {
    const partial = await predictions('partial.jsonl', 'partial', { 'acme__clock-1': fx.gold });
    const r = await run('partial', partial);
    expect(r.stderr).toContain('tandem: partial: no prediction for 1 instance(s): acme__clock-2');
    expect(r.code).toBe(1);
  });

  it('a validation that leaves nothing valid exits 1', async () => {
    const nonames = await fx.writeSuiteMap('nonames', { jest: { names: false }, pytest: { names: false } });
    const out = path.join(fx.root, 'v', 'valid.jsonl');
    const r = await bench(
      'validate',
      fx.sweBench,
      '--suites',
      nonames,
      '--out',
      out,
      '--runs',
      '1',
      '--quiet',
      ...docker.cliFlags(),
    );
    expect(r.stdout).toContain(
      `0 valid → ${out}; 2 rejected → ${path.join(fx.root, 'v', 'valid.rejected.jsonl')}`,
    );
    expect(r.stderr).toContain('no valid instance remains');
    // The names warning is said on the terminal too, not only inside the rejections file.
    expect(r.stderr).toContain('tandem: acme__clock-1: 4 of 4 listed test(s) were never reported');
    expect(r.code).toBe(1);
    const rejected = (await readFile(path.join(fx.root, 'v', 'valid.rejected.jsonl'), 'utf8'))
      .trim()
      .split('\n');
    expect(JSON.parse(rejected[0]!).reasons[0].message).toContain('were never reported');
  });
});
