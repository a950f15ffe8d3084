/**
 * Pure benchmark logic: the run summary (SWE-bench's counts, the papers' metrics, order
 * independence) and the list derivation of `bench validate` (F2P/P2P, flaky, passing partials).
 */
import { describe, expect, it } from 'vitest';
import { deriveLists } from '../../src/core/bench-derive-lists.ts';
import type { InstanceReportEntry, PredictionOutcome } from '../../src/core/bench-report.schema.ts';
import { summarizeRun } from '../../src/core/bench-summary.ts';
import type { ConfigurationRun, TestStatus } from '../../src/core/run.schema.ts';
import { configurationRun, emptyTestsStatus } from '../helpers/result-fixtures.ts';

function entry(
  id: string,
  outcome: PredictionOutcome,
  over: {
    repos?: number;
    fix?: number;
    applied?: boolean;
    success?: boolean[];
    langs?: string[];
    diag?: string[];
  } = {},
): InstanceReportEntry {
  const success = over.success ?? [];
  return {
    patch_is_None: false,
    patch_exists: outcome !== 'empty-patch',
    patch_successfully_applied: over.applied ?? (outcome === 'resolved' || outcome === 'unresolved'),
    resolved: outcome === 'resolved',
    tests_status: emptyTestsStatus(),
    tandem: {
      instance_id: id,
      model_name_or_path: 'm',
      outcome,
      repo_count: over.repos ?? 2,
      ...(over.langs ? { languages: over.langs } : {}),
      apply: [],
      test_patch_injected: true,
      f2p: { passed: 0, total: 0 },
      p2p: { passed: 0, total: 0 },
      fix_rate: over.fix ?? (outcome === 'resolved' ? 1 : 0),
      repositories: success.map((ok, i) => ({
        repo: `r${i}`,
        f2p: { passed: 0, total: 0 },
        p2p: { passed: 0, total: 0 },
        f2pComplete: ok,
        p2pPreserved: true,
        success: ok,
      })),
      ...(over.diag
        ? { diagnosis: { labels: over.diag.map((kind) => ({ kind: kind as 'regression' })), swaps: [] } }
        : {}),
      errors: [],
      attempts: 1,
      duration_ms: 1,
    },
  };
}

describe('summarizeRun', () => {
  const entries = [
    entry('a', 'resolved', { success: [true, true], langs: ['ts', 'go'] }),
    entry('b', 'unresolved', { fix: 0.5, success: [true, false], diag: ['regression'], langs: ['ts'] }),
    entry('c', 'unresolved', { repos: 3, applied: false }),
    entry('d', 'empty-patch'),
    entry('e', 'error', { repos: 3 }),
  ];
  const opts = {
    instanceIds: ['a', 'b', 'c', 'd', 'e', 'f'],
    submittedIds: ['a', 'b', 'c', 'd', 'e'],
    model: 'm',
    runId: 'r',
  };

  it('counts as SWE-bench does: empty patches are neither completed nor errors', () => {
    const s = summarizeRun(entries, opts);
    expect(s).toMatchObject({
      total_instances: 6,
      submitted_instances: 5,
      completed_instances: 3,
      resolved_instances: 1,
      unresolved_instances: 2,
      empty_patch_instances: 1,
      error_instances: 1,
      completed_ids: ['a', 'b', 'c'],
      incomplete_ids: ['e'],
      empty_patch_ids: ['d'],
      error_ids: ['e'],
      model_name_or_path: 'm',
      run_id: 'r',
    });
  });

  it("computes the papers' metrics over every prediction, an error counting as not resolved", () => {
    const m = summarizeRun(entries, opts).metrics;
    expect(m.case_success).toBe(0.1667);
    expect(m.repository_success).toBe(0.75);
    // (1 + 0.5 + 0 + 0 + 0) / 5: the error e counts 0, as SWE-bench counts it unresolved.
    expect(m.fix_rate).toBe(0.3);
    // c did not apply, e errored before applying; d is empty (not counted).
    expect(m.patch_apply_rate).toBe(0.5);
    expect(m.by_repo_count).toEqual({
      '2': { total: 3, resolved: 1, rate: 0.3333 },
      '3': { total: 2, resolved: 0, rate: 0 },
    });
    expect(m.by_language_count).toEqual({
      '1': { total: 1, resolved: 0, rate: 0 },
      '2': { total: 1, resolved: 1, rate: 1 },
      unknown: { total: 3, resolved: 0, rate: 0 },
    });
    expect(m.diagnosis).toEqual({ regression: 1 });
  });

  it('is independent of the order of the entries (merged shards equal one run)', () => {
    expect(summarizeRun([...entries].reverse(), opts)).toEqual(summarizeRun(entries, opts));
  });
});

function run(id: string, applied: string[], tests: Record<string, TestStatus>, attempt = 0) {
  const named = Object.entries(tests).map(([t, status]): [string, TestStatus] => [`g::::${t}`, status]);
  return configurationRun(id, applied, named, { group: 'g', attempt });
}

describe('deriveLists', () => {
  const runs = [
    run('base', [], { fix: 'failed', keep: 'passed', broken: 'failed', coin: 'passed' }),
    run('api', ['api'], { fix: 'failed', keep: 'passed', broken: 'failed', coin: 'failed' }),
    run('full', ['api', 'web'], { fix: 'passed', keep: 'passed', broken: 'failed', coin: 'passed' }),
    run('full', ['api', 'web'], { fix: 'passed', keep: 'passed', broken: 'failed', coin: 'failed' }, 1),
  ];

  it('derives F2P/P2P from base and every gold run; a test failing in gold is neither; flaky dropped', () => {
    const d = deriveLists(runs);
    expect(d).toMatchObject({
      failToPass: ['g::::fix'],
      passToPass: ['g::::keep'],
      derived: true,
      flaky: [{ id: 'g::::coin', statuses: ['passed', 'failed'] }],
      failingInGold: [],
      passingOthers: [],
    });
  });

  it('with given lists: flaky ones dropped, failures in gold reported, passing partial configurations named', () => {
    const d = deriveLists(
      [...runs, run('web', ['web'], { fix: 'passed', keep: 'passed', broken: 'failed', coin: 'passed' })],
      { failToPass: ['g::::fix', 'g::::coin'], passToPass: ['g::::keep', 'g::::broken'] },
    );
    expect(d.failToPass).toEqual(['g::::fix']);
    expect(d.passToPass).toEqual(['g::::keep', 'g::::broken']);
    expect(d.failingInGold).toEqual(['g::::broken']);
    expect(
      deriveLists([...runs, run('web', ['web'], { fix: 'passed', keep: 'passed' })], {
        failToPass: ['g::::fix'],
        passToPass: ['g::::keep'],
      }).passingOthers,
    ).toEqual([{ id: 'web', applied: ['web'] }]);
  });
});

describe('deriveLists: what it drops, and why', () => {
  const timedOut = (r: ConfigurationRun): ConfigurationRun => ({
    ...r,
    groups: [...r.groups, { name: 'slow', status: 'timeout', exitCode: null, durationMs: 60_000, tests: [] }],
  });
  it('records every test left out: flaky, failing on base and gold, failing or skipped in gold, timed out', () => {
    const base = run('base', [], {
      fix: 'failed',
      keep: 'passed',
      broken: 'failed',
      coin: 'passed',
      lost: 'passed',
      skip: 'skipped',
    });
    const gold = (coin: TestStatus, attempt = 0) =>
      run(
        'full',
        ['api'],
        { fix: 'passed', keep: 'passed', broken: 'failed', coin, lost: 'failed', skip: 'skipped' },
        attempt,
      );
    const slowBase: ConfigurationRun = {
      ...base,
      groups: [
        ...base.groups,
        {
          name: 'slow',
          status: 'reported',
          exitCode: 0,
          durationMs: 1,
          tests: [{ id: 'slow::::big', status: 'passed' }],
        },
      ],
    };
    const d = deriveLists([slowBase, timedOut(gold('passed')), timedOut(gold('failed', 1))]);
    expect(d.failToPass).toEqual(['g::::fix']);
    expect(d.passToPass).toEqual(['g::::keep']);
    expect(d.dropped).toEqual([
      { id: 'g::::broken', reason: 'fails-on-base-and-gold', statuses: ['failed', 'failed', 'failed'] },
      { id: 'g::::coin', reason: 'flaky', statuses: ['passed', 'failed', 'passed'] },
      { id: 'g::::lost', reason: 'fails-in-gold', statuses: ['failed', 'failed', 'passed'] },
      { id: 'g::::skip', reason: 'skipped-in-gold', statuses: ['skipped', 'skipped', 'skipped'] },
      { id: 'slow::::big', reason: 'timed-out', statuses: ['missing', 'missing', 'passed'] },
    ]);
    // Given lists: a listed test whose group timed out in every gold run is said to be so.
    const given = deriveLists([slowBase, timedOut(gold('passed')), timedOut(gold('passed', 1))], {
      failToPass: ['g::::fix', 'slow::::big'],
      passToPass: [],
    });
    expect(given.timedOutInGold).toEqual(['slow::::big']);
  });
});
