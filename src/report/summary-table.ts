/**
 * The CLI's end-of-run summary: the matrix as an aligned terminal table and the verdict lines.
 * Target columns use H (PR applied, head) / B (base): ASCII keeps columns aligned in every
 * terminal and log viewer, where ✓ may render double-width.
 */
import { INFRA_VERDICT_LINE, INVALID_SUITE_VERDICT_LINE } from '../core/infra-wording.ts';
import type { Report } from '../core/report.schema.ts';
import { buildReportView, formatDuration, type MatrixRowView } from './report-view.ts';

const ANSI = { green: 32, red: 31, yellow: 33, dim: 2, bold: 1 } as const;
type Style = keyof typeof ANSI;

const ANSI_PATTERN = /\u001b\[[0-9;]*m/g;
const visibleLength = (s: string) => s.replace(ANSI_PATTERN, '').length;

function painter(color: boolean) {
  return (style: Style, s: string) => (color && s ? `\u001b[${ANSI[style]}m${s}\u001b[0m` : s);
}

const OUTCOME_STYLE: Record<MatrixRowView['outcome'], Style> = {
  pass: 'green',
  fail: 'red',
  error: 'yellow',
  'not-run': 'dim',
};

/**
 * Judged as the comment judges rows: a failing base or partial configuration is what a jointly
 * necessary change expects (dim, never red under a green RESOLVED); a partial that passes is the
 * surprise (yellow); only `full` is green or red.
 */
function rowStyle(r: MatrixRowView): Style {
  if (r.role !== 'full' && r.outcome === 'fail') return 'dim';
  if (r.role !== 'full' && r.outcome === 'pass') return 'yellow';
  return OUTCOME_STYLE[r.outcome];
}

function table(rows: string[][], rightAligned: Set<number>): string {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => visibleLength(r[i] ?? ''))));
  const line = (r: string[]) =>
    r
      .map((cell, i) => {
        const pad = ' '.repeat(widths[i]! - visibleLength(cell));
        return rightAligned.has(i) ? pad + cell : cell + pad;
      })
      .join('  ')
      .trimEnd();
  const [head, ...body] = rows;
  return [line(head!), widths.map((w) => '-'.repeat(w)).join('  '), ...body.map(line)].join('\n');
}

function verdictText(view: ReturnType<typeof buildReportView>, paint: ReturnType<typeof painter>): string {
  const verdict =
    view.outcome === 'resolved'
      ? paint('green', 'RESOLVED')
      : view.outcome === 'unresolved'
        ? paint('red', 'NOT RESOLVED')
        : view.invalidSuite
          ? paint('yellow', INVALID_SUITE_VERDICT_LINE)
          : paint('yellow', INFRA_VERDICT_LINE);
  return `${paint('bold', 'Verdict:')} ${verdict}${view.hasSummary ? ` - ${view.summary}` : ''}`;
}

/** The summary's verdict line alone (`Verdict: RESOLVED - …`), for `--quiet`. */
export function verdictLine(report: Report, options: { color: boolean }): string {
  return `${verdictText(buildReportView(report, { reveal: 'counts' }), painter(options.color))}\n`;
}

/**
 * Suite-listed F2P/P2P ids the full configuration never reported: they count as failed, and the
 * usual cause is ids spelt unlike the reporter's (`group::class::name`, core/test-id.ts). Said on
 * the terminal instead of a silent 0/N, beside ids the runs did report when the caller has them
 * (the report keeps none: only the terminal, the evaluator's own, shows them).
 */
function neverReported(report: Report, reported: readonly string[]): string | undefined {
  const { source } = report.tests;
  if (source.failToPass !== 'suite' && source.passToPass !== 'suite') return undefined;
  const full = report.configurations.find((c) => c.role === 'full');
  const missing = (full?.tests ?? []).filter((t) => t.status === 'missing');
  if (missing.length === 0) return undefined;
  const n = missing.length;
  // With an invalid suite nothing was judged: the ids are the suite's mistake, not failures.
  const counted = report.invalidSuite ? 'the suite is invalid, nothing was judged' : 'counted as failed';
  const looks =
    reported.length > 0 ? `; reported ids look like ${reported.map((id) => `\`${id}\``).join(', ')}` : '';
  return `${n} listed ${n === 1 ? 'test was' : 'tests were'} never reported (${counted}), e.g. \`${missing[0]!.id}\`${looks}: check the suite's fail_to_pass/pass_to_pass ids against the ids the reporter writes (group::class::name)`;
}

export function summaryTable(
  report: Report,
  options: { color: boolean; reportedExamples?: readonly string[] | undefined },
): string {
  const paint = painter(options.color);
  const view = buildReportView(report, { reveal: 'counts' });
  const header = ['Configuration', ...view.columns.map((c) => c.short), 'Outcome', 'Passed', 'Time', 'Notes'];
  const rows = view.matrix.map((r) => [
    r.id,
    ...r.applied.map((a) => (a ? 'H' : 'B')),
    paint(rowStyle(r), r.errorKind ? `${r.outcome} (${r.errorKind})` : r.outcome),
    r.runs > 0 && r.outcome !== 'error' ? `${r.passed}/${r.total}` : '-',
    r.runs > 0 ? formatDuration(r.durationMs) : '-',
    [r.ranNoTest, r.cached ? 'cached' : r.runs > 1 ? `${r.runs} runs` : ''].filter(Boolean).join('; '),
  ]);
  const numeric = new Set([header.length - 3, header.length - 2]);
  const out = [table([header, ...rows], numeric), paint('dim', 'H = PR applied (head), B = base'), ''];

  out.push(verdictText(view, paint));
  out.push(
    `Jointly necessary: ${view.jointlyNecessary}${view.leaveOneOut ? ' (judged on leave-one-out configurations)' : ''}`,
  );
  out.push(`Unnecessary targets: ${view.unnecessary.length > 0 ? view.unnecessary.join(', ') : 'none'}`);
  out.push(
    view.judged
      ? `Fix rate: ${view.fixRatePercent} (F2P ${view.f2p.passed}/${view.f2p.total}, P2P ${view.p2p.passed}/${view.p2p.total})`
      : `Fix rate: - (${view.invalidSuite ? 'invalid suite: nothing was judged' : 'the full configuration has no result'})`,
  );
  const unreported = neverReported(report, options.reportedExamples ?? []);
  if (unreported) out.push(paint('yellow', unreported));
  // Ids only PR code reported are not judged (core/expected-tests.ts); their names stay out.
  if (view.seenOnlyWithPr > 0) out.push(`${view.seenOnlyWithPr} tests seen only with the PR (not judged)`);
  if (view.flakyCount > 0) {
    out.push(
      paint(
        'yellow',
        `Flaky: ${view.flakyCount} test(s) changed status across ${view.fullRuns} runs of full`,
      ),
    );
  }
  for (const e of view.infraErrors) {
    const where = [e.target, e.configuration && `configuration ${e.configuration}`]
      .filter(Boolean)
      .join(', ');
    out.push(paint('yellow', `Infrastructure error: ${e.kind}${where ? ` (${where})` : ''}: ${e.message}`));
  }
  if (view.partial) {
    out.push(
      `Partial report (shard ${view.partial.shard}): ${view.partial.ran}/${view.partial.planned} configurations`,
    );
  }
  return `${out.join('\n')}\n`;
}
