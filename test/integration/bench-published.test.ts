/**
 * `tandem bench` on published data, real git and Docker: SWE-bench rows (JSONL) and a
 * Multi-SWE-bench row (a JSON list) read as published, mapped to suites by repository and
 * version, graded with jest, mocha and pytest results in the datasets' test names; the standard
 * one-repository `model_patch`; the message when listed names are never reported; validation
 * that records what it dropped and writes a portable file whose gold runs a later `bench run`
 * reuses; and a resume that retries exactly the predictions an infrastructure error stopped.
 */
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runBench } from '../../src/bench/run-bench.ts';
import { validateInstances } from '../../src/bench/validate-instances.ts';
import { type InstanceReportEntry, instanceReportSchema } from '../../src/core/bench-report.schema.ts';
import { dockerSuite } from '../helpers/docker-suite.ts';
import { makeTempDir } from '../helpers/git-fixtures.ts';
import { type PublishedFixture, publishedFixture } from '../helpers/published-fixtures.ts';

const docker = dockerSuite('bench-published');
let fx: PublishedFixture;
const runsDir = () => path.join(fx.root, 'runs');
const engine = () => ({
  cacheDir: docker.cacheDir,
  useResultCache: true,
  sandbox: 'docker' as const,
  prepareNetwork: 'host' as const,
});
const run = (over: Partial<Parameters<typeof runBench>[0]> & { runId: string }) =>
  runBench({
    instances: fx.sweBench,
    suites: fx.suites,
    predictions: 'gold',
    runsDir: runsDir(),
    jobs: 2,
    matrix: 'none',
    diagnose: false,
    retries: 0,
    engine: engine(),
    ...over,
  });

async function entry(runId: string, model: string, id: string): Promise<InstanceReportEntry> {
  const file = path.join(runsDir(), runId, model, id, 'report.json');
  return instanceReportSchema.parse(JSON.parse(await readFile(file, 'utf8')))[id]!;
}

beforeAll(async () => {
  fx = await publishedFixture(docker.track(await makeTempDir('tandem-bench-published-')));
}, 120_000);

describe('published rows graded with the datasets’ test names', () => {
  it('gold resolves SWE-bench rows graded from jest and pytest results, lists as published', async () => {
    const { summaries } = await run({ runId: 'gold' });
    expect(summaries[0]!.summary).toMatchObject({
      resolved_ids: ['acme__clock-1', 'acme__clock-2'],
      error_instances: 0,
    });
    const jest = await entry('gold', 'gold', 'acme__clock-1');
    expect(jest.tests_status.FAIL_TO_PASS).toEqual({
      success: ['test/parse.test.js', 'test/parse.test.js:parse 2010,1,14'],
      failure: [],
    });
    expect(jest.tests_status.PASS_TO_PASS.success).toEqual([
      'test/format.test.js',
      'test/parse.test.js:parse keeps strings',
    ]);
    const pytest = await entry('gold', 'gold', 'acme__clock-2');
    expect(pytest.tests_status.FAIL_TO_PASS.success).toEqual([
      'tests/test_clock.py::TestClock::test_value[new]',
    ]);
    expect(pytest.tests_status.PASS_TO_PASS.success).toEqual(['tests/test_util.py::test_ok']);
    expect(pytest.tandem.names_warning).toBeUndefined();
  });

  it('gold resolves a Multi-SWE-bench row graded from mocha results', async () => {
    const { summaries } = await run({ runId: 'multi', instances: fx.multiSweBench });
    expect(summaries[0]!.summary.resolved_ids).toEqual(['acme__clock-3']);
    const e = await entry('multi', 'gold', 'acme__clock-3');
    expect(e.tests_status.FAIL_TO_PASS.success).toEqual(['clock .read() returns the new value']);
    expect(e.tests_status.PASS_TO_PASS.success).toEqual(['clock has a readme']);
  });

  it('a one-repository model_patch with repository-relative paths resolves; an empty one is empty-patch', async () => {
    const wrong = fx.gold.replace('+new', '+other');
    const predictions = await fx.writeFile(
      'predictions.jsonl',
      [
        { instance_id: 'acme__clock-1', model_name_or_path: 'agent', model_patch: fx.gold },
        { instance_id: 'acme__clock-2', model_name_or_path: 'agent', model_patch: '' },
        { instance_id: 'acme__clock-1', model_name_or_path: 'wrong', model_patch: wrong },
      ]
        .map((p) => JSON.stringify(p))
        .join('\n'),
    );
    await run({ runId: 'preds', predictions });
    const agent = await entry('preds', 'agent', 'acme__clock-1');
    expect(agent).toMatchObject({ patch_successfully_applied: true, resolved: true });
    expect((await entry('preds', 'agent', 'acme__clock-2')).tandem.outcome).toBe('empty-patch');
    const bad = await entry('preds', 'wrong', 'acme__clock-1');
    expect(bad.resolved).toBe(false);
    expect(bad.tests_status.FAIL_TO_PASS.failure).toEqual([
      'test/parse.test.js',
      'test/parse.test.js:parse 2010,1,14',
    ]);
    expect(bad.tests_status.PASS_TO_PASS.failure).toEqual([]);
  });

  it('listed names a suite never reports: unresolved, and the message says why', async () => {
    const suites = await fx.writeSuiteMap('unmapped', { jest: { names: false } });
    const { warnings } = await run({ runId: 'unmapped', suites });
    const e = await entry('unmapped', 'gold', 'acme__clock-1');
    expect(e.resolved).toBe(false);
    expect(e.tandem.names_warning).toMatch(
      /^4 of 4 listed test\(s\) were never reported\. Listed: "test\/parse\.test\.js", "test\/parse\.test\.js:parse 2010,1,14"; reported: "jest::clock\/test\/parse\.test\.js > parse::2010,1,14", "jest::clock\/test\/parse\.test\.js > parse::keeps strings"\. The suite maps names with no test group sets dataset_names/,
    );
    expect(warnings).toContainEqual(
      expect.stringContaining('gold acme__clock-1: 4 of 4 listed test(s) were never reported'),
    );
  });
});

describe('bench validate on published rows', () => {
  it('records every dropped test and why, writes portable rows, and gold runs after it are reused', async () => {
    // The pytest row without lists: derived, test_broken dropped (fails on base and in gold).
    const rows = (await readFile(fx.sweBench, 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    const { FAIL_TO_PASS: _f, PASS_TO_PASS: _p, ...unlisted } = rows[1];
    const instances = await fx.writeFile(
      'unlisted.jsonl',
      `${JSON.stringify(rows[0])}\n${JSON.stringify(unlisted)}\n`,
    );
    const out = path.join(fx.root, 'validated', 'clock.jsonl');
    const result = await validateInstances({
      instances,
      suites: fx.suites,
      out,
      runs: 2,
      strict: false,
      jobs: 2,
      retries: 0,
      engine: engine(),
    });
    expect(result).toMatchObject({
      accepted: 2,
      rejected: 0,
      rejectedFile: path.join(fx.root, 'validated', 'clock.rejected.jsonl'),
    });
    const text = await readFile(out, 'utf8');
    expect(text).not.toContain(fx.root);
    const [jest, pytest] = text
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(jest.repos[0].url).toBe('../remotes/clock.git');
    expect(jest.suite).toBe('../evaluator/suites-jest.yml');
    expect(pytest.FAIL_TO_PASS).toEqual(['tests/test_clock.py::TestClock::test_value[new]']);
    expect(pytest.PASS_TO_PASS).toEqual(['tests/test_util.py::test_ok']);
    expect(pytest.metadata.validation.dropped).toEqual([
      {
        id: 'tests/test_util.py::test_broken',
        reason: 'fails-on-base-and-gold',
        statuses: ['failed', 'failed', 'failed'],
      },
    ]);
    // Gold over the validated rows: the full configuration comes from validation's cache.
    await run({ runId: 'after-validate', instances: out, suites: undefined });
    for (const id of ['acme__clock-1', 'acme__clock-2']) {
      const e = await entry('after-validate', 'gold', id);
      expect(e.resolved).toBe(true);
      expect(e.tandem.report?.configurations.map((c) => [c.id, c.cached])).toEqual([['full', true]]);
    }
  });
});

describe('resume after an infrastructure error', () => {
  it('retries exactly the predictions that errored (unless told not to)', async () => {
    // The pytest suite names an image that does not exist: its row errors, the jest row resolves.
    const broken = await fx.writeSuiteMap('broken', { pytest: { image: 'tandem/no-such-image:1' } });
    const first = await run({ runId: 'resume', suites: broken });
    expect(first.summaries[0]!.summary).toMatchObject({
      resolved_ids: ['acme__clock-1'],
      error_ids: ['acme__clock-2'],
    });
    const report = (id: string) => path.join(runsDir(), 'resume', 'gold', id, 'report.json');
    const resolvedAt = (await stat(report('acme__clock-1'))).mtimeMs;

    const kept = await run({ runId: 'resume', suites: fx.suites, retryErrors: false });
    expect(kept.evaluated).toBe(0);
    expect(kept.summaries[0]!.summary.error_ids).toEqual(['acme__clock-2']);

    const events: unknown[] = [];
    const second = await run({ runId: 'resume', suites: fx.suites, onEvent: (e) => events.push(e) });
    expect(events[0]).toEqual({ type: 'start', total: 2, skipped: 1, retried: 1 });
    expect(second.evaluated).toBe(1);
    expect(second.summaries[0]!.summary).toMatchObject({
      resolved_ids: ['acme__clock-1', 'acme__clock-2'],
      error_ids: [],
    });
    expect((await stat(report('acme__clock-1'))).mtimeMs).toBe(resolvedAt);
  });
});
