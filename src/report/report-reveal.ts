/**
 * The JSON report as a reader outside the evaluator may see it, within `reveal`: the same
 * schema (tools that read Tandem reports read this one too), with what `reveal` keeps back
 * taken out.
 *
 * - `counts`: every hidden test name becomes an opaque label (`F2P-1`, `P2P-3`, `test-7`),
 *   the same label wherever the test appears, so statuses and counts still line up; no
 *   failure text, no group reason (a crash reason can quote test output).
 * - `names`: names stay; failure text and group reasons go.
 * - `messages`: everything the comment may show.
 * A shard's raw runs (`partial.runs`, with output tails) never leave; this is for published,
 * merged reports. Pure.
 */
import type { GradedConfiguration } from '../core/grade.schema.ts';
import type { Report } from '../core/report.schema.ts';
import type { Reveal } from './report-view.ts';

/** Stable opaque labels for test ids, numbered per kind in the order they are first met. */
class TestLabels {
  private readonly labels = new Map<string, string>();
  private readonly counters = new Map<string, number>();

  constructor(report: Report) {
    for (const id of report.tests.failToPass) this.label(id, 'F2P');
    for (const id of report.tests.passToPass) this.label(id, 'P2P');
  }

  label(id: string, prefix = 'test'): string {
    const known = this.labels.get(id);
    if (known !== undefined) return known;
    const n = (this.counters.get(prefix) ?? 0) + 1;
    this.counters.set(prefix, n);
    const label = `${prefix}-${n}`;
    this.labels.set(id, label);
    return label;
  }
}

export function revealReport(report: Report, reveal: Reveal): Report {
  const { partial: _runs, ...rest } = report;
  if (reveal === 'messages') return structuredClone(rest);
  const labels = reveal === 'counts' ? new TestLabels(report) : undefined;
  const name = (id: string) => (labels ? labels.label(id) : id);
  const names = (ids: readonly string[]) => ids.map(name);
  const status = report.tests_status;
  return {
    ...structuredClone(rest),
    tests: {
      ...report.tests,
      failToPass: names(report.tests.failToPass),
      passToPass: names(report.tests.passToPass),
      ignored: names(report.tests.ignored),
    },
    configurations: report.configurations.map((c) => withoutText(c, name)),
    flaky: report.flaky.map((f) => ({ ...f, id: name(f.id) })),
    tests_status: {
      FAIL_TO_PASS: {
        success: names(status.FAIL_TO_PASS.success),
        failure: names(status.FAIL_TO_PASS.failure),
      },
      PASS_TO_PASS: {
        success: names(status.PASS_TO_PASS.success),
        failure: names(status.PASS_TO_PASS.failure),
      },
      FAIL_TO_FAIL: {
        success: names(status.FAIL_TO_FAIL.success),
        failure: names(status.FAIL_TO_FAIL.failure),
      },
      PASS_TO_FAIL: {
        success: names(status.PASS_TO_FAIL.success),
        failure: names(status.PASS_TO_FAIL.failure),
      },
    },
  };
}

function withoutText(c: GradedConfiguration, name: (id: string) => string): GradedConfiguration {
  return {
    ...structuredClone(c),
    tests: c.tests.map(({ reason: _reason, ...t }) => ({ ...t, id: name(t.id) })),
    groups: c.groups.map(({ reason: _reason, ...g }) => ({ ...g })),
  };
}
