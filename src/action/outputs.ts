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
import * as core from '@actions/core';
import { errorText } from '../core/error-text.ts';
import { infraHeadline } from '../core/infra-wording.ts';
import type { Report } from '../core/report.schema.ts';
import { writeJsonReport } from '../report/json-report.ts';
import { summaryTable } from '../report/summary-table.ts';
import { type AnnotationOptions, reportAnnotations } from './annotations.ts';
import { failureSummary, reportSummary } from './summary.ts';

export type Verdict = 'resolved' | 'unresolved' | 'error';

export function failureMessage(report: Report): string | undefined {
  if (report.outcome === 'resolved') return undefined;
  if (report.outcome === 'error') return infraHeadline(report.summary);
  const full = report.configurations.find((c) => c.role === 'full');
  const failing = full ? full.tests.filter((t) => t.status !== 'passed').length : 0;
  return `Tandem: not resolved: ${failing} F2P/P2P test(s) do not pass with every pull request applied (${report.summary})`;
}

/** Appends Markdown to the job summary; logs it where the runner offers no summary file. */
export async function appendSummary(markdown: string, hasSummaryFile: boolean): Promise<void> {
  if (!hasSummaryFile) {
    core.info(markdown);
    return;
  }
  try {
    await core.summary.addRaw(markdown, !markdown.endsWith('\n')).write();
  } catch (err) {
    // The verdict still stands on the outputs and the report; a summary is a convenience.
    core.summary.emptyBuffer();
    core.warning(`Tandem: cannot write the job summary: ${errorText(err)}`);
  }
}

export interface PublishOptions extends AnnotationOptions {
  /** Where the report goes, relative to the workspace. */
  reportPath: string;
  workspace: string;
  hasSummaryFile: boolean;
}

/** Writes the report and publishes it; returns the absolute report path. */
export async function publishReport(report: Report, opts: PublishOptions): Promise<string> {
  const file = path.resolve(opts.workspace, opts.reportPath);
  writeJsonReport(file, report);
  core.info(summaryTable(report, { color: false }));
  core.setOutput('report-path', file);
  await appendSummary(reportSummary(report, opts.reportPath, opts.reveal), opts.hasSummaryFile);
  if (report.partial) {
    core.setOutput('partial', 'true');
    for (const e of report.infraErrors) {
      core.warning(`${e.message} (the merge job will report it)`, {
        title: `Tandem shard ${report.partial.shard}: infrastructure error (${e.kind})`,
      });
    }
    return file;
  }
  core.setOutput('partial', 'false');
  core.setOutput('resolved', String(report.outcome === 'resolved'));
  core.setOutput('verdict', report.outcome satisfies Verdict);
  for (const a of reportAnnotations(report, opts)) {
    if (a.level === 'error') core.error(a.message, a.properties);
    else if (a.level === 'warning') core.warning(a.message, a.properties);
    else core.notice(a.message, a.properties);
  }
  const failure = failureMessage(report);
  if (failure) core.setFailed(failure);
  return file;
}

/** A step that ended without a verdict: bad input or a failure before any report existed. */
export async function publishFailure(message: string, hasSummaryFile: boolean): Promise<void> {
  core.setOutput('resolved', 'false');
  core.setOutput('verdict', 'error' satisfies Verdict);
  await appendSummary(failureSummary(message), hasSummaryFile);
  core.setFailed(message);
}
