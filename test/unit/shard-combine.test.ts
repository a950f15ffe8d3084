import { describe, expect, it } from 'vitest';
import { InputError } from '../../src/core/errors.ts';
import { grade } from '../../src/core/grading.ts';
import { planMatrix } from '../../src/core/matrix-plan.ts';
import { type Report, reportSchema } from '../../src/core/report.schema.ts';
import type { ConfigurationRun } from '../../src/core/run.schema.ts';
import { combineShardReports } from '../../src/core/shard-combine.ts';
import { shardConfigurations } from '../../src/core/shard-plan.ts';
import { API, CLI, WEB } from '../helpers/repos.ts';
import { config, groupsOf, id, needs, type ReportInput, reportFrom, run, simulate } from '../helpers/runs.ts';

const F = id('api', 'new field');
const F2 = id('web', 'new field shown');
const P = id('api', 'health');
const P2 = id('cli', 'prints help');
const groups = [{ name: 'api', repo: API }, { name: 'web', repo: WEB }, { name: 'cli' }];

const plan = planMatrix([API, WEB, CLI], 'full');

/** F needs api+web, F2 needs web; P and P2 always pass. Full runs twice (one rerun). */
function allRuns(): ConfigurationRun[] {
  const runs = simulate(plan, (a) => ({
    [F]: needs(a, API, WEB),
    [F2]: needs(a, WEB),
    [P]: 'passed',
    [P2]: 'passed',
  }));
  const rerun = run(
    config(plan, 'full'),
    groupsOf({ [F]: 'passed', [F2]: 'failed', [P]: 'passed', [P2]: 'passed' }),
    {
      attempt: 1,
    },
  );
  return [...runs, rerun];
}

/** Shard i/n's report: the runs of its share of the plan, graded on their own. */
function shardReport(
  runs: ConfigurationRun[],
  index: number,
  count: number,
  extra: Partial<ReportInput> = {},
): Report {
  const mine = new Set(shardConfigurations(plan, { index, count }).map((c) => c.id));
  return reportFrom({
    plan,
    runs: runs.filter((r) => mine.has(r.id)),
    groups,
    reruns: 1,
    shard: `${index}/${count}`,
    ...extra,
  });
}

const shardFiles = (runs: ConfigurationRun[], count: number, extra: Partial<ReportInput> = {}) =>
  Array.from({ length: count }, (_, i) => ({
    file: `report-${i + 1}.json`,
    report: shardReport(runs, i + 1, count, extra),
  }));

function expectInputError(fn: () => unknown, message: RegExp): InputError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(InputError);
    expect((err as Error).message).toMatch(message);
    return err as InputError;
  }
  throw new Error('expected an InputError');
}

describe('combineShardReports', () => {
  it('two shards merge to the verdict and outcomes of grading every run at once', () => {
    const runs = allRuns();
    const shards = shardFiles(runs, 2);
    // Each shard alone sees only part of the matrix; base is in shard 1, full in shard 2.
    expect(shards[0]!.report.partial!.runs.map((r) => r.id)).toContain('base');
    expect(shards[1]!.report.partial!.runs.map((r) => r.id)).toContain('full');
    expect(shards[1]!.report.outcome).toBe('error');

    const merged = combineShardReports(shards);
    const once = grade({ plan, runs, groups, infraErrors: [] });

    expect(reportSchema.safeParse(merged).success).toBe(true);
    expect(merged.partial).toBeUndefined();
    expect(merged.outcome).toBe(once.outcome);
    expect(merged.verdict).toEqual(once.verdict);
    expect(merged.tests).toEqual(once.tests);
    expect(merged.flaky).toEqual(once.flaky);
    expect(merged.repositories).toEqual(once.repositories);
    expect(merged.tests_status).toEqual(once.tests_status);
    expect(merged.configurations.map((c) => [c.id, c.outcome, c.runs])).toEqual(
      once.configurations.map((c) => [c.id, c.outcome, c.runs]),
    );
    expect(merged.configurations).toEqual(once.configurations);
    expect(merged.matrix.planned).toEqual(plan.configurations.map((c) => c.id));
  });

  it('the merged verdict is what this change deserves: resolved false (flaky F2), F2P classified from base', () => {
    const merged = combineShardReports(shardFiles(allRuns(), 2));
    expect(merged.verdict.resolved).toBe(false);
    expect(merged.flaky).toEqual([{ id: F2, statuses: ['passed', 'failed'] }]);
    expect(merged.tests.source).toEqual({ failToPass: 'base-run', passToPass: 'base-run' });
    expect([...merged.tests.failToPass].sort()).toEqual([F, F2].sort());
  });

  it('works with any number of shards, in any order, and keeps the longest duration', () => {
    const runs = allRuns();
    const shards = shardFiles(runs, 3).map((s, i) => ({
      ...s,
      report: { ...s.report, durationMs: [5, 30, 10][i]! },
    }));
    const merged = combineShardReports([shards[2]!, shards[0]!, shards[1]!]);
    const once = grade({ plan, runs, groups, infraErrors: [] });
    expect(merged.verdict).toEqual(once.verdict);
    expect(merged.configurations).toEqual(once.configurations);
    expect(merged.durationMs).toBe(30);
  });

  it('grades with the suite lists the shards carry', () => {
    const runs = allRuns().filter((r) => r.attempt === 0);
    const lists = { failToPass: [F], passToPass: [P, P2] };
    const merged = combineShardReports(shardFiles(runs, 2, lists));
    expect(merged.tests.source).toEqual({ failToPass: 'suite', passToPass: 'suite' });
    expect(merged.verdict.resolved).toBe(true);
    expect(merged.verdict).toEqual(grade({ plan, runs, groups, ...lists, infraErrors: [] }).verdict);
  });

  it('a missing shard is an error naming the configurations not covered', () => {
    const [one] = shardFiles(allRuns(), 2);
    const missing = shardConfigurations(plan, { index: 2, count: 2 }).map((c) => c.id);
    const err = expectInputError(() => combineShardReports([one!]), /shard is missing/);
    for (const cid of missing) expect(err.message).toContain(cid);
  });

  it('a configuration in two shards is an error', () => {
    const shards = shardFiles(allRuns(), 2);
    expectInputError(
      () => combineShardReports([shards[0]!, shards[1]!, { ...shards[0]!, file: 'again.json' }]),
      /again\.json.*more than one shard/,
    );
  });

  it.each([
    ['suite', { suiteHash: 'sha256:other' }, /b\.json.*different case, suite/],
    ['case', { name: 'another change' }, /different case/],
  ] as const)('shards of a different %s are refused', (_what, extra, message) => {
    const runs = allRuns();
    const err = expectInputError(
      () =>
        combineShardReports([
          { file: 'a.json', report: shardReport(runs, 1, 2) },
          { file: 'b.json', report: shardReport(runs, 2, 2, extra) },
        ]),
      message,
    );
    expect(err.file).toBe('b.json');
  });

  it('a report that is not partial is refused', () => {
    const runs = allRuns();
    const whole = reportFrom({ plan, runs, groups });
    const err = expectInputError(
      () =>
        combineShardReports([
          { file: 'shard.json', report: shardReport(runs, 1, 2) },
          { file: 'whole.json', report: whole },
        ]),
      /whole\.json: not a partial report/,
    );
    expect(err.field).toBe('partial');
    expect(err.file).toBe('whole.json');
  });

  it('no reports at all is an error', () => {
    expectInputError(() => combineShardReports([]), /at least one/);
  });
});
