/**
 * Report → view model: every decision about what a reader sees (labels, icons, counts, what
 * `reveal: 'counts'` hides) is made here and in the parts it assembles, so templates only lay out
 * and escape. The view holds raw strings; the Markdown renderer escapes them, the terminal table
 * prints them. The model's shape is `report-view-model.ts`; its parts: the matrix
 * (`report-view-matrix.ts`), the tests (`report-view-tests.ts`), the verdict's headline
 * (`report-view-verdict.ts`), the targets (`report-view-targets.ts`).
 */
import type { Report } from '../core/report.schema.ts';
import { columnsOf, displayOrder, letterOf, MATRIX_LISTED, matrixView } from './report-view-matrix.ts';
import { type ReportView, shortSha, type ViewOptions } from './report-view-model.ts';
import { headCommitOf, targetView } from './report-view-targets.ts';
import { brokenGroups, failing, invalidSuiteView, testCountsView } from './report-view-tests.ts';
import {
  conflictsOf,
  infraErrorsView,
  notNeeded,
  repoRows,
  untestedTargets,
  verdictView,
} from './report-view-verdict.ts';

// What callers import from here (the faces, the trimming, the tests).
export { MATRIX_LISTED, matrixView } from './report-view-matrix.ts';
export type {
  FailingTestView,
  FooterView,
  MatrixRowView,
  ReportView,
  Reveal,
  ViewOptions,
} from './report-view-model.ts';
export { formatDuration, isFullSha, shortSha } from './report-view-model.ts';
export { targetView } from './report-view-targets.ts';
export {
  invalidSuiteView,
  MAX_FAILING_LISTED,
  MESSAGE_LINES,
  readableTestName,
  testCountsView,
} from './report-view-tests.ts';
export { REPO_ROWS_LISTED, verdictView } from './report-view-verdict.ts';

export function buildReportView(report: Report, options: ViewOptions): ReportView {
  const repos = displayOrder(
    report.targets.map((t) => t.repo),
    options.order,
  );
  const targetsShown = repos.map((r) => report.targets.find((t) => t.repo === r)!);
  const full = report.configurations.find((c) => c.role === 'full');
  const names = options.reveal !== 'counts';
  // An invalid suite lists no failing test: none of them is the code's doing.
  const f = report.invalidSuite
    ? { failing: [], failingCount: 0, failingMore: 0 }
    : failing(full, options.reveal);
  const columns = columnsOf(repos);
  const judgedError = report.outcome === 'error';
  return {
    name: report.name,
    outcome: report.outcome,
    ...invalidSuiteView(report, options),
    summary: report.summary,
    judged: !judgedError,
    hasSummary: report.summary !== 'complete',
    ...verdictView(report),
    ...testCountsView(report, full),
    columns,
    ...matrixView(report, repos),
    repositories: judgedError ? [] : report.repositories,
    reveal: options.reveal,
    failing: names ? f.failing : [],
    failingCount: f.failingCount,
    failingMore: names ? f.failingMore : 0,
    brokenGroups: names ? brokenGroups(full) : [],
    flaky: names ? report.flaky : [],
    flakyCount: report.flaky.length,
    fullRuns: full?.runs ?? 0,
    infraErrors: infraErrorsView(report),
    infraMore: 0,
    targets: targetsShown.map((t) => targetView(t, options)),
    context: report.context.map((c) => ({ repo: c.repo, ref: c.ref, sha: shortSha(c.sha) })),
    tool: `${report.tool.name} ${report.tool.version}`,
    suite: report.suite.name,
    sandbox: report.sandbox,
    durationMs: report.durationMs,
    matrixMode: report.matrix.mode,
    trimmed: [],
    repoRows: judgedError ? [] : repoRows(report.repositories),
    legend: repos.map((repo, i) => ({ letter: letterOf(i), repo })),
    compact: repos.length > 3,
    folded: 0,
    matrixCap: MATRIX_LISTED,
    conflicts: conflictsOf(report),
    showJointlyNecessary: report.outcome === 'resolved',
    notNeeded: notNeeded(report, options),
    namesHidden: !names && (f.failingCount > 0 || report.flaky.length > 0),
    untested: judgedError ? [] : untestedTargets(report, repos),
    showJointLegend: repos.length > 1,
    failingListed: names && f.failingCount > 0,
    ...(options.webUrl ? { webUrl: options.webUrl } : {}),
    footer: {
      heads: targetsShown.flatMap((t, i) => {
        const commit = headCommitOf(t, options.prHeads);
        return commit ? [{ repo: columns[i]!.short, sha: shortSha(commit), commit, fullRepo: t.repo }] : [];
      }),
    },
  };
}
