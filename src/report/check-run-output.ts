/**
 * The `Tandem` check run's output: a one-line title, the verdict and matrix as the summary, and
 * the details as the text, each within GitHub's limits.
 */
import type { CheckRunOutput } from '../core/check-run-output.ts';
import { CHECK_RUN_OUTPUT_LIMIT } from '../core/github-limits.ts';
import { INFRA_TITLE, INVALID_SUITE_TITLE } from '../core/infra-wording.ts';
import type { Report } from '../core/report.schema.ts';
import { renderFitted, type ViewExtras, viewWithExtras } from './markdown-report.ts';
import type { ReportView, Reveal } from './report-view.ts';

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** The one-line title, from the view already built for the summary and text. */
export function checkRunTitle(view: ReportView): string {
  if (view.invalidSuite) return INVALID_SUITE_TITLE;
  if (view.outcome === 'error') return INFRA_TITLE;
  if (view.outcome === 'resolved') {
    return `Tandem: resolved — ${view.asExpected}/${view.ran} configurations as expected`;
  }
  const parts: string[] = [];
  if (view.f2p.failing > 0) parts.push(`${view.f2p.failing} F2P failing`);
  if (view.p2p.failing > 0) parts.push(`${view.p2p.failing} P2P regressed`);
  return `Tandem: not resolved — ${parts.length > 0 ? parts.join(', ') : plural(view.ran, 'configuration')}`;
}

/** The same view as the comment: the verdict block as the summary, the folded sections as the text. */
export function renderCheckRunOutput(
  report: Report,
  options: { reveal: Reveal; extras?: ViewExtras },
): Required<CheckRunOutput> {
  const view = viewWithExtras(report, options.reveal, options.extras);
  return {
    title: checkRunTitle(view),
    summary: renderFitted('check-summary.md.hbs', view, CHECK_RUN_OUTPUT_LIMIT),
    text: renderFitted('check-text.md.hbs', view, CHECK_RUN_OUTPUT_LIMIT),
  };
}
