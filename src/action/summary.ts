/**
 * The job summary: the same Markdown report the App posts as a comment (verdict, matrix, failing
 * tests, errors), from templates/, plus where the JSON report was written. Shard reports render
 * as partial ("merge the shards for the verdict"); a plan renders as its shard table.
 */
import { JOB_SUMMARY_LIMIT } from '../core/github-limits.ts';
import type { PlannedConfiguration } from '../core/matrix-plan.ts';
import type { Report } from '../core/report.schema.ts';
import { mdCode, mdText, renderMarkdown } from '../report/markdown-report.ts';

/** A character is at most 4 bytes of UTF-8: a quarter of GitHub's per-step limit always fits. */
const MAX_CHARS = Math.floor(JOB_SUMMARY_LIMIT.max / 4) - 1024;

export function reportSummary(report: Report, reportPath: string): string {
  const body = renderMarkdown(report, { reveal: 'names', maxChars: MAX_CHARS });
  return `${body}\n---\nJSON report: ${mdCode(reportPath)}\n`;
}

export function planSummary(
  mode: string,
  configurations: readonly PlannedConfiguration[],
  shards: ReadonlyArray<{ shard: string; configurations: string[] }>,
): string {
  const rows = shards.map(
    (s) => `| ${mdText(s.shard)} | ${s.configurations.map((c) => mdCode(c)).join(', ')} |`,
  );
  return [
    `### Tandem plan: ${configurations.length} configuration(s), ${mdText(mode)} matrix, ${shards.length} shard(s)`,
    '',
    '| shard | configurations |',
    '| --- | --- |',
    ...rows,
    '',
  ].join('\n');
}

/** For a step that ended without a report. */
export function failureSummary(message: string): string {
  return `### Tandem\n\n⚠️ ${mdText(message)}\n`;
}
