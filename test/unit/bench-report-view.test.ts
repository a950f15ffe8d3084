/**
 * The benchmark report as a reader sees it, from run summaries and entries (the view and both
 * renderers, no files): pass@k and the Wilson interval in the leaderboard when a run made several
 * attempts, listed test names never reported shown beside the instance and in their own section,
 * and an instance of one repository said in the singular.
 */
import { describe, expect, it } from 'vitest';
import type { InstanceReportEntry } from '../../src/core/bench-report.schema.ts';
import { summarizeRun } from '../../src/core/bench-summary.ts';
import { renderBenchHtml, renderBenchMarkdown } from '../../src/report/bench-render.ts';
import {
  type BenchRunData,
  benchView,
  byRepoCountView,
  instanceView,
  leaderboardRow,
  runLabeler,
} from '../../src/report/bench-view.ts';
import { emptyTestsStatus } from '../helpers/result-fixtures.ts';

const WARNING = '2 of 2 listed test(s) were never reported. e.g. `a.test.js:adds`';

function entry(id: string, resolved: boolean, over: Partial<InstanceReportEntry['tandem']> = {}) {
  const e: InstanceReportEntry = {
    patch_is_None: false,
    patch_exists: true,
    patch_successfully_applied: true,
    resolved,
    tests_status: emptyTestsStatus(),
    tandem: {
      instance_id: id,
      model_name_or_path: 'agent',
      outcome: resolved ? 'resolved' : 'unresolved',
      repo_count: 1,
      apply: [{ repo: 'acme/clock', changed: true, applied: true }],
      test_patch_injected: true,
      f2p: { passed: resolved ? 1 : 0, total: 1 },
      p2p: { passed: 1, total: 1 },
      fix_rate: resolved ? 1 : 0,
      repositories: [],
      errors: [],
      attempts: 2,
      duration_ms: 1,
      ...over,
    },
  };
  return e;
}

function runOf(attempts: number): BenchRunData {
  const entries = [
    entry('acme__clock-1', true, { attempts, attempts_resolved: [true, false] }),
    entry('acme__clock-2', false, { attempts, names_warning: WARNING }),
  ];
  const summary = summarizeRun(entries, {
    instanceIds: ['acme__clock-1', 'acme__clock-2'],
    submittedIds: ['acme__clock-1', 'acme__clock-2'],
    model: 'agent',
    runId: 'r1',
  });
  return { runId: 'r1', summary: { ...summary, metrics: { ...summary.metrics, attempts } }, entries };
}

describe('bench report leaderboard', () => {
  it('has pass@1, pass@k and the Wilson interval columns when a run made several attempts', () => {
    const view = benchView([runOf(2)]);
    expect(view.passAtKHeader).toBe('pass@2 %');
    const md = renderBenchMarkdown(view);
    const [header, , row] = md.split('\n').filter((l) => l.startsWith('|'));
    expect(header).toContain('| Case success % | 95% CI % | pass@1 % | pass@2 % |');
    const s = view.leaderboard[0]!;
    expect(row).toContain(`| ${s.caseSuccess} | ${s.ciLow}–${s.ciHigh} | ${s.passAt1} | ${s.passAtK} |`);
    expect(header!.split('|').length).toBe(row!.split('|').length);
    const html = renderBenchHtml(view);
    expect(html).toContain('<th>95% CI %</th><th>pass@1 %</th><th>pass@2 %</th>');
    expect(html).toContain(`<td>${s.ciLow}–${s.ciHigh}</td><td>${s.passAt1}</td><td>${s.passAtK}</td>`);
  });

  it('leaves the columns out when every run made one attempt', () => {
    const view = benchView([runOf(1)]);
    expect(view.passAtKHeader).toBe('');
    expect(renderBenchMarkdown(view)).not.toContain('pass@');
    expect(renderBenchHtml(view)).not.toContain('pass@');
  });
});

describe('bench report instances', () => {
  it('shows the test-names warning in both reports, beside its instance in the HTML', () => {
    const view = benchView([runOf(1)]);
    expect(view.namesWarnings).toEqual([{ model: 'agent', id: 'acme__clock-2', warning: WARNING }]);
    const md = renderBenchMarkdown(view);
    expect(md).toContain('## Test names never reported');
    expect(md).toContain('- agent acme\\_\\_clock-2: 2 of 2 listed test(s) were never reported.');
    const html = renderBenchHtml(view);
    const section = html.slice(html.indexOf('id="instance-acme__clock-2"'));
    expect(section).toContain('<p class="names-warning">2 of 2 listed test(s) were never reported.');
    expect(html).toContain('<h2>Test names never reported</h2>');
  });

  it('says "(1 repository)" for an instance of one repository', () => {
    const html = renderBenchHtml(benchView([runOf(1)]));
    expect(html).toContain('<small>(1 repository)</small>');
    expect(html).not.toContain('(1 repositories)');
  });
});

describe('bench view phases', () => {
  const twin = (runId: string): BenchRunData => ({ ...runOf(1), runId });

  it('runLabeler: a model shared by several runs is named with the run id', () => {
    const runs = [twin('r1'), twin('r2')];
    expect(runs.map(runLabeler(runs))).toEqual(['agent (r1)', 'agent (r2)']);
    expect([twin('r1')].map(runLabeler([twin('r1')]))).toEqual(['agent']);
  });

  it('leaderboardRow: rates in percent; per-repository rates a dash with no graded repository', () => {
    const row = leaderboardRow(runOf(1), 'agent');
    expect(row).toMatchObject({ model: 'agent', runId: 'r1', resolved: 1, total: 2, caseSuccess: 50 });
    expect(row.repositorySuccess).toBe('—');
  });

  it('byRepoCountView: one row per repository count, a dash for a run without such instances', () => {
    const run = runOf(1);
    const rows = byRepoCountView([run], () => 'agent');
    expect(rows.map((r) => r.repos)).toEqual(['1']);
    expect(rows[0]!.rates[0]).toMatchObject({ model: 'agent', resolved: 1, total: 2, shown: '50%' });
  });

  it('instanceView: a cell per run, `missing` where a run lacks the instance, in the singular for one repository', () => {
    const other: BenchRunData = { ...twin('r2'), entries: [] };
    const view = instanceView('acme__clock-1', [runOf(1), other], (r) => r.runId);
    expect(view.repoLabel).toBe('1 repository');
    expect(view.cells.map((c) => c.kind)).toEqual(['resolved', 'missing']);
    expect(view.details).toHaveLength(1);
  });
});
