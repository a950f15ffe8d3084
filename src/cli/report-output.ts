/**
 * Where `eval`, `validate` and `merge` put their results. `--json -` makes stdout the JSON report
 * alone, so it can be piped (`tandem eval case.yml --json - | jq …`); every other line then goes
 * to stderr. Summaries and progress are always on stderr.
 */
import { writeFile } from 'node:fs/promises';
import type { Report } from '../core/report.schema.ts';
import { jsonReportText, writeJsonReport } from '../report/json-report.ts';
import { renderMarkdown } from '../report/markdown-report.ts';
import { summaryTable, verdictLine } from '../report/summary-table.ts';
import { colorEnabled } from './color.ts';

/** The value of `--json` that means standard output. */
export const STDOUT = '-';

/** The stream for a command's own result lines: stdout, unless stdout carries the JSON report. */
export function resultStream(json: string | undefined): NodeJS.WriteStream {
  return json === STDOUT ? process.stderr : process.stdout;
}

export async function writeReports(report: Report, to: { json?: string; markdown?: string }): Promise<void> {
  if (to.json === STDOUT) process.stdout.write(jsonReportText(report, 'standard output'));
  else if (to.json) writeJsonReport(to.json, report);
  if (to.markdown) await writeFile(to.markdown, renderMarkdown(report, { reveal: 'names' }));
}

/** The end-of-run summary on stderr: the whole table, or with `--quiet` the verdict line alone. */
export function printSummary(report: Report, quiet: boolean): void {
  const color = colorEnabled(process.stderr);
  process.stderr.write(quiet ? verdictLine(report, { color }) : `\n${summaryTable(report, { color })}\n`);
}
