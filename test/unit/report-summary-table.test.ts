import { describe, expect, it } from 'vitest';
import { reportedExamples } from '../../src/core/observed-tests.ts';
import { summaryTable } from '../../src/report/summary-table.ts';
import { API, WEB } from '../helpers/repos.ts';
import { buildReport, expectText, runOf, type SampleName, sampleReports, T } from './report-fixtures.ts';

const cells = (line: string) => line.trim().split(/\s{2,}/);
const table = (name: SampleName, color = false) => summaryTable(sampleReports[name](), { color });

describe('summaryTable', () => {
  it('lays out configurations as rows and targets as H/B columns', () => {
    const out = table('resolved');
    const lines = out.split('\n');
    expect(cells(lines[0]!)).toEqual(['Configuration', 'api', 'web', 'Outcome', 'Passed', 'Time', 'Notes']);
    expect(cells(lines[2]!)).toEqual(['base', 'B', 'B', 'fail', '2/4', '4.2s']);
    expect(cells(lines[3]!)).toEqual(['api', 'H', 'B', 'fail', '3/4', '4.2s', 'cached']);
    expect(cells(lines[5]!)).toEqual(['full', 'H', 'H', 'pass', '4/4', '4.2s']);
    // Columns align: every row starts its outcome at the same offset.
    expect(new Set(lines.slice(2, 6).map((l) => l.search(/(fail|pass)/))).size).toBe(1);
    expectText(out, {
      has: [
        'Verdict: RESOLVED\n',
        'Jointly necessary: yes\n',
        'Unnecessary targets: none\n',
        'Fix rate: 100% (F2P 2/2, P2P 2/2)\n',
      ],
      lacks: ['\u001b['],
    });
  });

  it.each<[SampleName, string[], ...Array<[row: number, cells: string[]]>]>([
    ['unresolved', ['Fix rate: 0% (F2P 1/2, P2P 1/2)']],
    [
      'leave-one-out',
      ['Jointly necessary: no (judged on leave-one-out configurations)', 'Unnecessary targets: acme/cli'],
      // Rows in merge (column) order: base, then api+web, api+cli, web+cli (fewer changes first), full.
      [5, ['web+cli', 'B', 'H', 'H', 'fail', '2/3', '4.2s']],
    ],
    ['flaky', ['Flaky: 1 test(s) changed status across 2 runs']],
    [
      'infra-error',
      [
        'Verdict: INFRASTRUCTURE ERROR (not a verdict on the code)',
        'Infrastructure error: merge-conflict (acme/web, configuration web)',
      ],
      [5, ['full', 'H', 'H', 'error (merge-conflict)', '-', '4.2s']],
    ],
  ])('prints the verdict lines and matrix rows of the %s sample', (name, verdictLines, ...rows) => {
    const out = table(name);
    expectText(out, { has: verdictLines });
    for (const [row, expected] of rows) expect(cells(out.split('\n')[row]!)).toEqual(expected);
  });

  it('colors outcomes and verdict only when asked, keeping alignment', () => {
    const out = table('resolved', true);
    expectText(out, {
      // Partial and base failures are expected in a jointly necessary change: dim, not red.
      has: ['\u001b[32mpass\u001b[0m', '\u001b[2mfail\u001b[0m', '\u001b[32mRESOLVED\u001b[0m'],
      lacks: ['\u001b[31m'],
    });
    const unresolved = table('unresolved', true);
    expect(unresolved.split('\n').find((l) => l.startsWith('full'))).toContain('\u001b[31mfail\u001b[0m');
    const plain = out.replace(/\u001b\[[0-9;]*m/g, '');
    expect(plain).toBe(table('resolved'));
  });
});

describe('listed tests that no run reported', () => {
  it('are said on the terminal, with one of the ids, instead of a silent 0/N', () => {
    const all = { [T.create]: 'passed', [T.health]: 'passed' } as const;
    const report = buildReport({
      targets: [API, WEB],
      failToPass: ['api::users::creates a user', 'web::form::submits'],
      passToPass: [T.health],
      runs: [
        runOf('base', [], all),
        runOf('api', [API], all),
        runOf('web', [WEB], all),
        runOf('full', [API, WEB], all),
      ],
    });
    const out = summaryTable(report, { color: false });
    // An id of a group that reported cleanly, never reported by any configuration: the suite is wrong.
    expect(out).toContain('Verdict: INVALID SUITE (not a verdict on the code)');
    expect(out).toContain(
      '2 listed tests were never reported (the suite is invalid, nothing was judged), e.g. `api::users::creates a user`',
    );
    expect(summaryTable(sampleReports.resolved(), { color: false })).not.toContain('never reported');
    // The CLI hands in ids the runs reported (the report keeps none): they follow as examples.
    const withExamples = summaryTable(report, { color: false, reportedExamples: [T.create, T.health] });
    expect(withExamples).toContain(
      `2 listed tests were never reported (the suite is invalid, nothing was judged), e.g. \`api::users::creates a user\`; reported ids look like \`${T.create}\`, \`${T.health}\`: check`,
    );
  });

  it('take their examples from the all-base run first, from other runs only when it reported none', () => {
    const base = runOf('base', [], { [T.health]: 'passed' });
    const full = runOf('full', [API, WEB], { [T.create]: 'passed', [T.health]: 'passed' });
    expect(reportedExamples([base, full])).toEqual([T.health]);
    expect(reportedExamples([runOf('base', [], {}), full])).toEqual([T.create, T.health].sort());
  });
});
