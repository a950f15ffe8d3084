/**
 * The job summary: the same Markdown report the App posts as a comment (verdict, matrix, failing
 * tests, errors), from templates/, plus where the JSON report was written. Shard reports render
 * as partial ("merge the shards for the verdict"); a plan renders as its shard table.
 */
import { JOB_SUMMARY_LIMIT } from '../core/github-limits.ts';
import type { PlannedConfiguration } from '../core/matrix-plan.ts';
import type { Report } from '../core/report.schema.ts';
import { mdCode, mdText, renderMarkdown } from '../report/markdown-report.ts';
import type { Reveal } from '../report/report-view.ts';

/** GitHub counts the summary in bytes; leave room for the JSON report line below. */
const LIMIT = { max: JOB_SUMMARY_LIMIT.max - 1024, unit: 'bytes' as const };

/** The same view as the App's comment, honouring `reveal` as the App does. */
export function reportSummary(report: Report, reportPath: string, reveal: Reveal = 'names'): string {
  const body = renderMarkdown(report, { reveal, limit: LIMIT });
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
