import { describe, expect, it } from 'vitest';
import { summaryTable } from '../../src/report/summary-table.ts';
import {
  flakyReport,
  infraErrorReport,
  leaveOneOutReport,
  resolvedReport,
  unresolvedReport,
} from './report-fixtures.ts';

const cells = (line: string) => line.trim().split(/\s{2,}/);

describe('summaryTable', () => {
  it('lays out configurations as rows and targets as H/B columns', () => {
    const out = summaryTable(resolvedReport(), { color: false });
    const lines = out.split('\n');
    expect(cells(lines[0]!)).toEqual(['Configuration', 'api', 'web', 'Outcome', 'Passed', 'Time', 'Notes']);
    expect(cells(lines[2]!)).toEqual(['base', 'B', 'B', 'fail', '2/4', '4.2s']);
    expect(cells(lines[3]!)).toEqual(['api', 'H', 'B', 'fail', '3/4', '4.2s', 'cached']);
    expect(cells(lines[5]!)).toEqual(['full', 'H', 'H', 'pass', '4/4', '4.2s']);
    // Columns align: every row starts its outcome at the same offset.
    expect(new Set(lines.slice(2, 6).map((l) => l.search(/(fail|pass)/))).size).toBe(1);
    expect(out).toContain('Verdict: RESOLVED\n');
    expect(out).toContain('Jointly necessary: yes\n');
    expect(out).toContain('Unnecessary targets: none\n');
    expect(out).toContain('Fix rate: 100% (F2P 2/2, P2P 2/2)\n');
    expect(out).not.toContain('\u001b[');
  });

  it('prints the verdict lines for unresolved, leave-one-out, flaky and infrastructure errors', () => {
    expect(summaryTable(unresolvedReport(), { color: false })).toContain('Fix rate: 0% (F2P 1/2, P2P 1/2)');
    const loo = summaryTable(leaveOneOutReport(), { color: false });
    expect(loo).toContain('Jointly necessary: no (judged on leave-one-out configurations)');
    expect(loo).toContain('Unnecessary targets: acme/cli');
    expect(cells(loo.split('\n')[3]!)).toEqual(['web+cli', 'B', 'H', 'H', 'fail', '2/3', '4.2s']);
    expect(summaryTable(flakyReport(), { color: false })).toContain(
      'Flaky: 1 test(s) changed status across 2 runs',
    );
    const infra = summaryTable(infraErrorReport(), { color: false });
    expect(infra).toContain('Verdict: INFRASTRUCTURE ERROR (not a verdict on the code)');
    expect(infra).toContain('Infrastructure error: merge-conflict (acme/web, configuration web)');
    expect(cells(infra.split('\n')[5]!)).toEqual(['full', 'H', 'H', 'error (merge-conflict)', '-', '4.2s']);
  });

  it('colors outcomes and verdict only when asked, keeping alignment', () => {
    const out = summaryTable(resolvedReport(), { color: true });
    expect(out).toContain('\u001b[32mpass\u001b[0m');
    expect(out).toContain('\u001b[31mfail\u001b[0m');
    expect(out).toContain('\u001b[32mRESOLVED\u001b[0m');
    const plain = out.replace(/\u001b\[[0-9;]*m/g, '');
    expect(plain).toBe(summaryTable(resolvedReport(), { color: false }));
  });
});
