import { describe, expect, it } from 'vitest';
import type { Report } from '../../src/core/report.schema.ts';
import { DEFAULT_MAX_CHARS, mdCode, mdText, renderMarkdown } from '../../src/report/markdown-report.ts';
import { MAX_FAILING_LISTED, readableTestName } from '../../src/report/report-view.ts';
import { linkedReport } from '../helpers/comment-cases.ts';
import {
  API,
  buildReport,
  expectText,
  flakyReport,
  manyFailuresReport,
  resolvedReport,
  runOf,
  type SampleName,
  sampleReports,
  T,
  unresolvedReport,
  WEB,
} from './report-fixtures.ts';

/** Markdown of a report (or a named sample) with test names revealed. */
const named = (report: Report | SampleName) =>
  renderMarkdown(typeof report === 'string' ? sampleReports[report]() : report, { reveal: 'names' });

/** The rows of the table whose header starts with `header`, as arrays of trimmed cells. */
function tableRows(md: string, header: string): string[][] {
  const lines = md.split('\n');
  const start = lines.findIndex((l) => l.startsWith(header));
  if (start < 0) return [];
  const end = lines.findIndex((l, i) => i > start && !l.startsWith('|'));
  return lines.slice(start + 2, end < 0 ? undefined : end).map((l) =>
    l
      .slice(1, -1)
      .split(' | ')
      .map((c) => c.trim()),
  );
}

/** The matrix rows keyed by configuration id (one column per target: up to three PRs). */
function matrixRows(md: string): Map<string, string[]> {
  return new Map(
    tableRows(md, '| Configuration |').map((cells) => [cells[0]!.replaceAll('`', ''), cells.slice(1)]),
  );
}

describe('renderMarkdown', () => {
  it('opens with one verdict line and its reason, then the per-repository table', () => {
    const md = named('unresolved');
    expect(md.split('\n')[0]).toBe(
      '❌ **Not resolved** — 1 F2P test still fails in `acme/web` and 1 P2P test regresses in `acme/api`',
    );
    expect(tableRows(md, '| Repository |')).toEqual([
      ['`acme/api`', '1/1', '0/1', '❌ 1 P2P regressed'],
      ['`acme/web`', '0/1', '1/1', '❌ 1 F2P still failing'],
    ]);
    // Everything else is folded.
    expect(md.indexOf('<details>')).toBeGreaterThan(md.indexOf('| Repository |'));
    expect(named('resolved').split('\n')[0]).toBe(
      '✅ **Resolved** — all 2 F2P tests pass and no P2P test regresses across 2 repositories',
    );
  });

  it('judges the matrix against a jointly necessary change: failing partials are as expected', () => {
    const md = named('resolved');
    expect(md).toContain('<details><summary>Matrix: 4 of 4 configurations as expected</summary>');
    const rows = matrixRows(md);
    expect([...rows.keys()]).toEqual(['base', 'api', 'web', 'full']);
    expect(rows.get('base')).toEqual(['·', '·', '➖ fails, as expected', '2/4', '4.2s']);
    expect(rows.get('api')).toEqual(['✓', '·', '➖ fails, as expected', '3/4', '4.2s (cached)']);
    expect(rows.get('full')).toEqual(['✓', '✓', '✅ passes', '4/4', '4.2s']);
    expect(md).not.toContain('❌');
  });

  it('names a partial configuration that passes as the surprise', () => {
    const md = named('leave-one-out');
    expect(matrixRows(md).get('api+web')).toEqual(['✓', '✓', '·', '⚠️ passes: unexpected', '3/3', '4.2s']);
    expectText(md, {
      has: [
        '- **Jointly necessary:** no (judged on leave-one-out configurations)',
        '- **Unnecessary targets:** `acme/cli`',
        '(leave-one-out matrix)',
      ],
    });
  });

  it('keeps the matrix of eight PRs (256 configurations) to a few rows and a summary line', () => {
    const md = renderMarkdown(linkedReport(8, 'unresolved'), { reveal: 'names' });
    const rows = tableRows(md, '| Applied |');
    expect(rows).toEqual([
      ['`········` base', '➖ fails, as expected', '8/16', '3.0s'],
      ['`ABCDEFGH` full', '❌ fails', '14/16', '3.8s'],
    ]);
    expect(md).toContain('…and 254 more configurations failed, as expected.');
    expect(md).toContain('**A** `acme/api` · **B** `acme/web`');
    // Repositories that succeed share one row.
    expect(tableRows(md, '| Repository |').at(-1)).toEqual(['6 other repositories', '6/6', '6/6', '✅']);
  });

  it('lists P2P regressions before F2P failures, with readable names', () => {
    const md = named(linkedReport(3, 'unresolved'));
    const p2p = md.indexOf('- **P2P** `cli` `Existing › keeps working`');
    const f2p = md.indexOf('- **F2P** `api` `accepts the new field from the linked change`');
    expect(p2p).toBeGreaterThan(0);
    expect(f2p).toBeGreaterThan(p2p);
    expect(readableTestName('api::::name')).toEqual({ group: 'api', name: 'name' });
    expect(readableTestName('api::Users::adds')).toEqual({ group: 'api', name: 'Users › adds' });
  });

  it('shows the first lines of failure messages only under reveal "messages"', () => {
    const report = linkedReport(2, 'unresolved');
    const messages = renderMarkdown(report, { reveal: 'messages' });
    expect(messages).toContain(
      "  ```\n  AssertionError: expected 'total' to equal 'amount'\n    at acme/api/test/field.test.js:12:5\n    at run\n  ```",
    );
    expect(renderMarkdown(report, { reveal: 'names' })).not.toContain('AssertionError');
    expect(renderMarkdown(report, { reveal: 'counts' })).not.toContain('AssertionError');
  });

  it('a message cannot close its fence', () => {
    const report = unresolvedReport();
    const full = report.configurations.find((c) => c.role === 'full')!;
    full.tests.find((t) => t.status === 'failed')!.reason = 'got ```\n</details> @admins';
    const md = renderMarkdown(report, { reveal: 'messages' });
    expect(md).toContain('  ````\n  got ```\n  </details> @admins\n  ````');
  });

  it('reveal "counts" shows numbers but no test names', () => {
    for (const report of [unresolvedReport(), flakyReport()]) {
      const md = renderMarkdown(report, { reveal: 'counts' });
      for (const id of Object.values(T)) expect(md).not.toContain(id.slice(id.lastIndexOf('::') + 2));
      expect(md).not.toContain('SECRET-ASSERTION');
    }
    const md = renderMarkdown(unresolvedReport(), { reveal: 'counts' });
    // The counts are in the verdict line; a section that could list nothing is left out.
    expect(md.split('\n')[0]).toContain('1 F2P test still fails');
    expect(md).not.toContain('Failing tests');
    expect(renderMarkdown(unresolvedReport(), { reveal: 'names' })).toContain(
      'Failing tests: 1 P2P regression, 1 F2P still failing',
    );
  });

  it('reports a merge conflict as its own outcome, naming the target and what fixes it', () => {
    const md = named('infra-error');
    expect(md.split('\n')[0]).toBe(
      '⚠️ **Merge conflict** — the pull request in `acme/web` does not merge onto its base; updating it will re-evaluate the change (not a verdict on the code)',
    );
    expect(md).toContain(
      '<summary>Matrix: 2 of 4 configurations as expected; 2 without a result (infrastructure error)</summary>',
    );
    expectText(md, {
      has: [
        '- **Fix rate:** — (the full configuration has no result)',
        '- **merge-conflict** in `acme/web` (configuration `web`): `feature/web does not merge onto main` — files: `src/form.ts`',
      ],
      lacks: ['| Repository |', 'Resolved**'],
    });
    expect(matrixRows(md).get('full')).toEqual(['✓', '✓', '⚠️ error (merge-conflict)', '—', '4.2s']);
  });

  it('lists flaky tests with their statuses across the full reruns', () => {
    const md = named('flaky');
    expectText(md, {
      has: ['<summary>Flaky tests: 1</summary>', '- `web::Form::submits the new field`: passed → failed'],
    });
    expect(matrixRows(md).get('full')![4]).toBe('8.4s (2 runs)');
  });

  it('shows planned configurations a shard did not run, and says the report is partial', () => {
    const report = buildReport({
      targets: [API, WEB],
      partial: '1/2',
      runs: [
        runOf('base', [], { [T.create]: 'failed', [T.submit]: 'failed' }),
        runOf('web', [WEB], { [T.create]: 'failed', [T.submit]: 'passed' }),
      ],
    });
    const md = named(report);
    expect(md).toContain('Partial report (shard 1/2): 2 of 4 planned configurations ran here');
    expect(matrixRows(md).get('api')).toEqual(['✓', '·', '— not run', '—', '']);
  });

  it('ends with a footer naming the heads it is for', () => {
    const md = named('resolved');
    const web = resolvedReport().targets[1]!;
    expect(md).toContain(
      `<sub>Tandem · updated for api \`${resolvedReport().targets[0]!.head!.sha.slice(0, 7)}\`, web \`${web.head!.sha.slice(0, 7)}\`</sub>`,
    );
  });

  it('caps the failing list at MAX_FAILING_LISTED with "and N more"', () => {
    const md = named(manyFailuresReport(80));
    expect(md.match(/^- \*\*F2P\*\* `api` `Bulk › case number/gm)).toHaveLength(MAX_FAILING_LISTED);
    expect(md).toContain(`…and ${80 - MAX_FAILING_LISTED} more.`);
    expect(md).not.toContain('Report trimmed');
    expect(md.length).toBeLessThanOrEqual(DEFAULT_MAX_CHARS);
  });

  it('trims to maxChars, dropping failing test names first, and says so', () => {
    const report = manyFailuresReport(80);
    const maxChars = named(report).length - 100;
    const md = renderMarkdown(report, { reveal: 'names', maxChars });
    expect(md.length).toBeLessThanOrEqual(maxChars);
    expect(md).toContain('✂️ **Report trimmed**');
    expect(md).toContain('failing and flaky test names left out');
    expect(md).not.toContain('Bulk › case number');
    expect(md.split('\n')[0]).toMatch(/^❌ \*\*Not resolved\*\*/);
    expect(matrixRows(md).get('full')![2]).toBe('❌ fails');
  });

  it('never exceeds its limit, counted in bytes when asked', () => {
    const targets = Array.from({ length: 8 }, (_, i) => `acme/repo${i}`);
    const report = buildReport({
      targets,
      runs: [runOf('base', [], { [T.create]: 'failed' }), runOf('full', targets, { [T.create]: 'passed' })],
    });
    for (const maxChars of [3000, 1200, 300]) {
      const md = renderMarkdown(report, { reveal: 'names', maxChars });
      expect(md.length).toBeLessThanOrEqual(maxChars);
    }
    const bytes = renderMarkdown(report, { reveal: 'names', limit: { max: 1200, unit: 'bytes' } });
    expect(Buffer.byteLength(bytes)).toBeLessThanOrEqual(1200);
    // 254 planned rows did not run: listed up to the cap, the rest counted.
    const md = renderMarkdown(report, { reveal: 'names' });
    expect(md).toMatch(/…and 240 more not as expected: the JSON report lists every configuration\./);
  });

  it('escapes what repositories and tests control', () => {
    expect(mdText('**bold** <img> @octocat [x](y) a|b')).toBe(
      '\\*\\*bold\\*\\* \\<img\\> @\u200boctocat \\[x\\](y) a\\|b',
    );
    expect(mdCode('uses `tick` here')).toBe('``uses `tick` here``');
    expect(mdCode('`edge')).toBe('`` `edge ``');
    expect(mdCode('line1\nline2')).toBe('`line1 line2`');
    const report = unresolvedReport();
    report.name = 'ping @admins <script>';
    report.configurations.find((c) => c.role === 'full')!.tests.find((t) => t.status === 'failed')!.id =
      'web::a|b::has `ticks`';
    const md = named(report);
    expect(md).toContain('- **Change:** ping @\u200badmins \\<script\\>');
    expect(md).toContain('`web` `` a|b › has `ticks` ``');
  });
});
