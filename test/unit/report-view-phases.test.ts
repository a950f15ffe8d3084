/**
 * The phases `buildReportView` is made of (src/report/report-view.ts), each on its own: the
 * verdict's words, the test counts, the matrix summary, one target's row, an invalid suite.
 */
import { describe, expect, it } from 'vitest';
import {
  invalidSuiteView,
  matrixView,
  targetView,
  testCountsView,
  verdictView,
} from '../../src/report/report-view.ts';
import {
  API,
  infraErrorReport,
  leaveOneOutReport,
  resolvedReport,
  unresolvedReport,
  WEB,
} from './report-fixtures.ts';

const fullOf = (r: ReturnType<typeof resolvedReport>) => r.configurations.find((c) => c.role === 'full');

describe('report view phases', () => {
  it('verdictView: joint necessity in words, its basis, the fix rate as a percentage', () => {
    const v = verdictView(resolvedReport());
    expect(v.jointlyNecessary).toBe('yes');
    expect(v.leaveOneOut).toBe(false);
    expect(v.fixRatePercent).toBe(`${Math.round(v.fixRate * 1000) / 10}%`);
    const loo = verdictView(leaveOneOutReport());
    expect(loo.leaveOneOut).toBe(true);
  });

  it('testCountsView: the full configuration’s F2P/P2P with what still fails', () => {
    const report = unresolvedReport();
    const c = testCountsView(report, fullOf(report));
    expect(c.f2p.failing).toBe(c.f2p.total - c.f2p.passed);
    expect(c.f2p.failing + c.p2p.failing).toBeGreaterThan(0);
    // No full run: nothing passed of the lists.
    expect(testCountsView(report, undefined).f2p).toEqual({
      passed: 0,
      total: report.tests.failToPass.length,
      failing: report.tests.failToPass.length,
    });
  });

  it('matrixView: rows in the given order, how many ran and errored', () => {
    const report = infraErrorReport();
    const m = matrixView(report, [API, WEB]);
    expect(m.matrix).toHaveLength(report.configurations.length);
    expect(m.ran).toBe(m.matrix.filter((r) => r.outcome !== 'not-run').length);
    expect(m.errored).toBeGreaterThan(0);
    expect(m.partial).toBeUndefined();
  });

  it('targetView: a PR that does not merge says so; the PR head is quoted when known', () => {
    const report = infraErrorReport();
    const web = report.targets.find((t) => t.repo === WEB)!;
    expect(targetView(web, { reveal: 'names' }).error).toMatch(/^merge-conflict: /);
    const api = report.targets.find((t) => t.repo === API)!;
    const head = 'a'.repeat(40);
    expect(targetView(api, { reveal: 'names', prHeads: [{ repo: API, sha: head }] })).toMatchObject({
      headSha: head.slice(0, 7),
      headCommit: head,
    });
  });

  it('invalidSuiteView: nothing for a valid suite; unmatched ids only where names may be shown', () => {
    expect(invalidSuiteView(resolvedReport(), { reveal: 'names' })).toEqual({});
    const report = {
      ...resolvedReport(),
      invalidSuite: { message: 'ids match no test', fields: ['tests.fail_to_pass'], unmatched: ['a', 'b'] },
    };
    expect(invalidSuiteView(report, { reveal: 'names', suitePath: 's.yml' }).invalidSuite).toMatchObject({
      ids: ['a', 'b'],
      count: 2,
      more: 0,
      suitePath: 's.yml',
    });
    expect(invalidSuiteView(report, { reveal: 'counts' }).invalidSuite).toMatchObject({
      ids: [],
      count: 2,
      more: 0,
    });
  });
});
