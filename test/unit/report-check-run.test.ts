import { describe, expect, it } from 'vitest';
import { CHECK_RUN_OUTPUT_LIMIT, textSize } from '../../src/core/github-limits.ts';
import { renderCheckRunOutput } from '../../src/report/check-run-output.ts';
import { renderFitted } from '../../src/report/markdown-report.ts';
import { buildReportView } from '../../src/report/report-view.ts';
import {
  flakyReport,
  infraErrorReport,
  manyFailuresReport,
  resolvedReport,
  unresolvedReport,
} from './report-fixtures.ts';

describe('renderCheckRunOutput', () => {
  it('titles each outcome', () => {
    expect(renderCheckRunOutput(resolvedReport(), { reveal: 'names' }).title).toBe(
      'Tandem: resolved — 4/4 configurations as expected',
    );
    expect(renderCheckRunOutput(unresolvedReport(), { reveal: 'names' }).title).toBe(
      'Tandem: not resolved — 1 F2P failing, 1 P2P regressed',
    );
    expect(renderCheckRunOutput(flakyReport(), { reveal: 'names' }).title).toBe(
      'Tandem: not resolved — 1 F2P failing',
    );
    expect(renderCheckRunOutput(infraErrorReport(), { reveal: 'names' }).title).toBe(
      'Tandem: infrastructure error, not a verdict on the code',
    );
  });

  it('puts the verdict block in the summary and the folded sections (same as the comment) in the text', () => {
    const out = renderCheckRunOutput(unresolvedReport(), { reveal: 'names' });
    expect(out.summary.split('\n')[0]).toBe(
      '❌ **Not resolved** — 1 F2P test still fails in `acme/web` and 1 P2P test regresses in `acme/api`',
    );
    expect(out.summary).toContain('| `acme/web` | 0/1 | 1/1 | ❌ 1 F2P still failing |');
    expect(out.summary).not.toContain('<details>');
    expect(out.text).toContain('<details><summary>Matrix: 3 of 4 configurations as expected</summary>');
    expect(out.text).toContain('| `full` | ✓ | ✓ | ❌ fails | 2/4 |');
    expect(out.text).toContain('- **F2P** `web` `Form › submits the new field`');
    expect(out.text).toContain('<details><summary>Targets and run details</summary>');
  });

  it('hides test names from both parts under reveal "counts"', () => {
    const out = renderCheckRunOutput(unresolvedReport(), { reveal: 'counts' });
    expect(`${out.summary}${out.text}`).not.toContain('submits the new field');
    // The counts are in the verdict line; a section that could list nothing is left out.
    expect(out.summary).toContain('1 F2P test still fails');
    expect(out.text).not.toContain('Failing tests');
  });

  it('fits a byte limit, not a character limit, when it has to cut', () => {
    const view = buildReportView(unresolvedReport(), { reveal: 'names' });
    const limit = { max: 400, unit: 'bytes' } as const;
    const text = renderFitted('check-text.md.hbs', view, limit);
    expect(textSize(text, 'bytes')).toBeLessThanOrEqual(limit.max);
    // The cut notice itself is multi-byte (✂️): counting characters would overshoot.
    expect(textSize(text, 'chars')).toBeLessThan(textSize(text, 'bytes'));
    expect(text).toContain('Report trimmed');
  });

  it("keeps summary and text within GitHub's 65,535 bytes", () => {
    // 2,000 failing tests with long names: far beyond the limit before trimming.
    const report = manyFailuresReport(2000);
    report.infraErrors = Array.from({ length: 400 }, (_, i) => ({
      kind: 'engine' as const,
      message: `container ${i} vanished ${'y'.repeat(400)}`,
    }));
    const out = renderCheckRunOutput(report, { reveal: 'names' });
    expect(textSize(out.summary, 'bytes')).toBeLessThanOrEqual(CHECK_RUN_OUTPUT_LIMIT.max);
    expect(textSize(out.text, 'bytes')).toBeLessThanOrEqual(CHECK_RUN_OUTPUT_LIMIT.max);
    // Failing-test names go first, then the error list is capped.
    expect(out.text).toContain('failing and flaky test names left out');
    expect(out.text).not.toContain('Bulk::case number');
    expect(out.text).toContain('<details><summary>Infrastructure errors: 10+</summary>');
    expect(out.text).toContain('- …and 390 more');
    expect(out.text).toContain('| `full` | ✓ | ✓ | ❌ fails | 0/2000 |');
    expect(out.summary).toContain('❌ **Not resolved** — 2000 F2P tests still fail in `acme/api`');
  });
});
