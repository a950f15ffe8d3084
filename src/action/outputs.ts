/**
 * What a finished step publishes: the JSON report (the artifact an App reads), the outputs
 * `resolved` / `verdict` / `report-path`, the job summary, annotations, and the step's status.
 *
 * A shard's report is partial: it carries outputs `report-path` and `partial=true` and the step
 * passes unless it could not run at all, so the merge job (which gives the verdict) always runs.
 * A complete report fails the step when not resolved; an infrastructure error says it is not a
 * verdict on the code.
 */
import path from 'node:path';
import type { Report } from '../core/report.schema.ts';
import { writeJsonReport } from '../report/json-report.ts';
import { summaryTable } from '../report/summary-table.ts';
import { type AnnotationOptions, reportAnnotations } from './annotations.ts';
import type { Runner } from './runner.ts';
import { failureSummary, reportSummary } from './summary.ts';

export type Verdict = 'resolved' | 'unresolved' | 'error';

export function failureMessage(report: Report): string | undefined {
  if (report.outcome === 'resolved') return undefined;
  if (report.outcome === 'error') {
    return `Tandem: infrastructure error, not a verdict on the code: ${report.summary}`;
  }
  const full = report.configurations.find((c) => c.role === 'full');
  const failing = full ? full.tests.filter((t) => t.status !== 'passed').length : 0;
  return `Tandem: not resolved: ${failing} F2P/P2P test(s) do not pass with every pull request applied (${report.summary})`;
}

export interface PublishOptions extends AnnotationOptions {
  /** Where the report goes, relative to the workspace. */
  reportPath: string;
  workspace: string;
}

/** Writes the report and publishes it; returns the absolute report path. */
export function publishReport(runner: Runner, report: Report, opts: PublishOptions): string {
  const file = path.resolve(opts.workspace, opts.reportPath);
  writeJsonReport(file, report);
  runner.info(summaryTable(report, { color: false }));
  runner.setOutput('report-path', file);
  runner.appendSummary(reportSummary(report, opts.reportPath));
  if (report.partial) {
    runner.setOutput('partial', 'true');
    for (const e of report.infraErrors) {
      runner.annotate('warning', `${e.message} (the merge job will report it)`, {
        title: `Tandem shard ${report.partial.shard}: infrastructure error (${e.kind})`,
      });
    }
    return file;
  }
  runner.setOutput('partial', 'false');
  runner.setOutput('resolved', String(report.outcome === 'resolved'));
  runner.setOutput('verdict', report.outcome satisfies Verdict);
  for (const a of reportAnnotations(report, opts)) runner.annotate(a.level, a.message, a.properties);
  const failure = failureMessage(report);
  if (failure) runner.setFailed(failure);
  return file;
}

/** A step that ended without a verdict: bad input or a failure before any report existed. */
export function publishFailure(runner: Runner, message: string): void {
  runner.setOutput('resolved', 'false');
  runner.setOutput('verdict', 'error' satisfies Verdict);
  runner.appendSummary(failureSummary(message));
  runner.setFailed(message);
}
