import { writeFile } from 'node:fs/promises';
import { mergeReports } from '../../core/merge-reports.ts';
import { readJsonReport, writeJsonReport } from '../../report/json-report.ts';
import { renderMarkdown } from '../../report/markdown-report.ts';
import { summaryTable } from '../../report/summary-table.ts';
import { exitCodeFor } from '../exit-codes.ts';

/** `tandem merge`: shard reports combined into one report and verdict; the verdict's exit code. */
export async function mergeCommand(
  files: string[],
  raw: { json?: string; markdown?: string },
): Promise<number> {
  const partials = await Promise.all(
    files.map(async (file) => ({ file, report: await readJsonReport(file) })),
  );
  const report = mergeReports(partials);
  if (raw.json) await writeJsonReport(raw.json, report);
  if (raw.markdown) await writeFile(raw.markdown, renderMarkdown(report, { reveal: 'names' }));
  process.stderr.write(`${summaryTable(report, { color: process.stderr.isTTY === true })}\n`);
  return exitCodeFor(report);
}
