/**
 * Annotations for a report: infrastructure errors, and the F2P/P2P tests that did not pass in the
 * full configuration (where `resolved` is judged). GitHub shows at most 10 error annotations per
 * step, and `setFailed` adds one more, so at most `MAX_ERROR_ANNOTATIONS - 1` are emitted here:
 * past that, the last one summarises the rest instead of GitHub dropping them silently.
 */

import type { AnnotationProperties } from '@actions/core';
import { ERROR_ANNOTATIONS_PER_STEP } from '../core/github-limits.ts';
import { NOT_A_VERDICT } from '../core/infra-wording.ts';
import type { Report } from '../core/report.schema.ts';
import { groupOfTestId } from '../core/test-id.ts';
import type { Reveal } from '../report/report-view.ts';

export const MAX_ERROR_ANNOTATIONS = ERROR_ANNOTATIONS_PER_STEP;

export interface Annotation {
  level: 'error' | 'warning' | 'notice';
  message: string;
  properties: AnnotationProperties;
}

export interface AnnotationOptions {
  /** The file (relative to the repository root) holding a test group's tests, when known. */
  fileOf?: (group: string) => string | undefined;
  /** Error annotations allowed; default leaves room for the `setFailed` message. */
  budget?: number;
  /** As the App's `reveal`: `counts` names no test, `names` adds names, `messages` failure text. */
  reveal?: Reveal;
}

const LISTED_IN_SUMMARY = 20;

/** Error annotations first (capped, the rest summarised), then at most one flaky-tests warning. */
export function reportAnnotations(report: Report, opts: AnnotationOptions = {}): Annotation[] {
  const budget = Math.max(1, opts.budget ?? MAX_ERROR_ANNOTATIONS - 1);
  const errors: Array<Annotation & { id: string }> = [];
  for (const e of report.infraErrors) {
    errors.push({
      id: `${e.kind}${e.target ? ` (${e.target})` : ''}`,
      level: 'error',
      message: `${e.message}${e.target ? ` [${e.target}]` : ''}. Infrastructure error, ${NOT_A_VERDICT}.`,
      properties: { title: `Tandem: infrastructure error (${e.kind})` },
    });
  }
  const reveal = opts.reveal ?? 'messages';
  const full = report.configurations.find((c) => c.role === 'full');
  const failing = (full?.tests ?? []).filter((t) => t.status !== 'passed');
  if (reveal === 'counts' && failing.length > 0) {
    const n = (kind: string) => failing.filter((t) => t.kind === kind).length;
    errors.push({
      id: 'failing tests',
      level: 'error',
      message: `${n('F2P')} F2P test(s) failing and ${n('P2P')} P2P test(s) regressed with every pull request applied (test names are not shown: reveal is "counts").`,
      properties: { title: 'Tandem: failing tests' },
    });
  }
  for (const t of reveal === 'counts' ? [] : failing) {
    const file = opts.fileOf?.(groupOfTestId(t.id));
    errors.push({
      id: t.id,
      level: 'error',
      message: `${t.kind} test ${t.id} is ${t.status} with every pull request applied${t.reason && reveal === 'messages' ? `: ${t.reason}` : ''}`,
      properties: { title: `Tandem: ${t.kind} test ${t.status}`, ...(file ? { file } : {}) },
    });
  }
  const out: Annotation[] = [];
  if (errors.length <= budget) out.push(...errors);
  else {
    const shown = errors.slice(0, budget - 1);
    const rest = errors.slice(budget - 1);
    const listed = rest.slice(0, LISTED_IN_SUMMARY).map((e) => e.id);
    const more = rest.length > listed.length ? `, and ${rest.length - listed.length} more` : '';
    out.push(...shown, {
      level: 'error',
      message: `${rest.length} more problem(s) not annotated: ${listed.join('; ')}${more}. The job summary and the report artifact list them all.`,
      properties: { title: `Tandem: ${rest.length} more failing test(s) or error(s)` },
    });
  }
  if (report.flaky.length > 0) {
    const which =
      reveal === 'counts'
        ? ''
        : `: ${report.flaky
            .slice(0, LISTED_IN_SUMMARY)
            .map((f) => `${f.id} (${f.statuses.join(' → ')})`)
            .join('; ')}`;
    out.push({
      level: 'warning',
      message: `${report.flaky.length} test(s) changed status between runs of the full configuration${which}`,
      properties: { title: 'Tandem: flaky tests' },
    });
  }
  return out.map(({ level, message, properties }) => ({ level, message, properties }));
}
