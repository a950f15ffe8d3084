/**
 * Where `eval`, `validate` and `merge` put their results. `--json -` (or `--markdown -`) makes
 * stdout that report alone, so it can be piped (`tandem eval case.yml --json - | jq …`); every
 * other line then goes to stderr. Summaries and progress are always on stderr.
 */
import { writeFile } from 'node:fs/promises';
import { InputError } from '../core/errors.ts';
import type { Report } from '../core/report.schema.ts';
import { jsonReportText, writeJsonReport } from '../report/json-report.ts';
import { renderMarkdown } from '../report/markdown-report.ts';
import { summaryTable, verdictLine } from '../report/summary-table.ts';
import { colorEnabled } from './color.ts';

/** The value of `--json` / `--markdown` that means standard output. */
export const STDOUT = '-';

export interface ReportTargets {
  json?: string | undefined;
  markdown?: string | undefined;
}

/** Checked before any work: stdout can carry one report. */
export function checkReportTargets(to: ReportTargets): void {
  if (to.json === STDOUT && to.markdown === STDOUT)
    throw new InputError('options --json - and --markdown -: standard output can carry only one report');
}

/** The stream for a command's own result lines: stdout, unless stdout carries a report. */
export function resultStream(to: ReportTargets): NodeJS.WriteStream {
  return to.json === STDOUT || to.markdown === STDOUT ? process.stderr : process.stdout;
}

export async function writeReports(report: Report, to: ReportTargets): Promise<void> {
  checkReportTargets(to);
  if (to.json === STDOUT) process.stdout.write(jsonReportText(report, 'standard output'));
  else if (to.json) writeJsonReport(to.json, report);
  const markdown = to.markdown ? renderMarkdown(report, { reveal: 'names' }) : undefined;
  if (to.markdown === STDOUT) process.stdout.write(markdown!);
  else if (to.markdown) await writeFile(to.markdown, markdown!);
}

/**
 * The end-of-run summary on stderr: the whole table, or with `--quiet` the verdict line alone.
 * `reportedExamples`: ids the runs reported, for the never-reported line (never in a report file).
 */
export function printSummary(report: Report, quiet: boolean, reportedExamples?: readonly string[]): void {
  const color = colorEnabled(process.stderr);
  process.stderr.write(
    quiet ? verdictLine(report, { color }) : `\n${summaryTable(report, { color, reportedExamples })}\n`,
  );
}
