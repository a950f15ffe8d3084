import { describe, expect, it } from 'vitest';
import type { Report } from '../../src/core/report.schema.ts';
import { DEFAULT_MAX_CHARS, mdCode, mdText, renderMarkdown } from '../../src/report/markdown-report.ts';
import { MAX_FAILING_LISTED } from '../../src/report/report-view.ts';
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

/** The matrix table rows as arrays of trimmed cells, keyed by configuration id. */
function matrixRows(md: string): Map<string, string[]> {
  const rows = new Map<string, string[]>();
  const lines = md.split('\n');
  const start = lines.findIndex((l) => l.startsWith('| Configuration |'));
  const end = lines.indexOf('', start);
  for (const line of lines.slice(start + 2, end)) {
    const m = /^\| `([^`]+)` \|(.*)\|$/.exec(line);
    if (m)
      rows.set(
        m[1]!,
        m[2]!.split('|').map((c) => c.trim()),
      );
  }
  return rows;
}

describe('renderMarkdown', () => {
  it('renders a resolved, jointly necessary change with its matrix', () => {
    const md = named('resolved');
    expectText(md, {
      has: [
        '✅ **Resolved**',
        '**Jointly necessary:** yes',
        '**Unnecessary targets:** none',
        '**Fix rate:** 100% (2/2 F2P passing)',
        '| Configuration | api | web | Outcome | Tests | Time | Notes |',
      ],
      lacks: ['leave-one-out configurations'],
    });
    const rows = matrixRows(md);
    expect([...rows.keys()]).toEqual(['base', 'api', 'web', 'full']);
    expect(rows.get('base')).toEqual(['·', '·', '❌ fail', '2/4', '4.2s', '']);
    expect(rows.get('api')).toEqual(['✓', '·', '❌ fail', '3/4', '4.2s', 'cached']);
    expect(rows.get('full')).toEqual(['✓', '✓', '✅ pass', '4/4', '4.2s', '']);
    expectText(md, {
      has: ['4 of 4 configurations as expected', '| `acme/api` | 1/1 | 1/1 | ✅ | ✅ | ✅ |'],
      lacks: ['Failing in the full configuration'],
    });
    // Targets with short SHAs and refs.
    const web = resolvedReport().targets[1]!;
    expect(md).toContain(
      `| \`acme/web\` | \`main\` \`${web.base.sha.slice(0, 7)}\` | \`feature/web\` \`${web.head!.sha.slice(0, 7)}\` | branch |`,
    );
    expect(md).toContain('Context (no PR): `acme/shared` at `main` (`ccccccc`)');
  });

  it('names failing F2P tests and regressed P2P tests of an unresolved change, grouped by test group', () => {
    expectText(named('unresolved'), {
      has: [
        '❌ **Not resolved**',
        '**Jointly necessary:** no',
        '1 P2P test regressed, which makes it 0',
        '1 F2P failing, 1 P2P regressed.',
        '**web**\n- `Form::submits the new field` — F2P, failed',
        '**api**\n- `Health::responds ok` — P2P, failed',
        '| `acme/web` | 0/1 | 1/1 | ❌ | ✅ | ❌ |',
      ],
      // Assertion messages may quote hidden tests: never shown.
      lacks: ['SECRET-ASSERTION'],
    });
  });

  it('reveal "counts" shows numbers but no test names', () => {
    for (const report of [unresolvedReport(), flakyReport()]) {
      const md = renderMarkdown(report, { reveal: 'counts' });
      for (const id of Object.values(T)) {
        expect(md).not.toContain(id.slice(id.indexOf('::') + 2));
      }
      expect(md).not.toContain('SECRET-ASSERTION');
    }
    const md = renderMarkdown(unresolvedReport(), { reveal: 'counts' });
    expect(md).toContain('1 F2P failing, 1 P2P regressed. Test names are not shown here.');
    expect(renderMarkdown(flakyReport(), { reveal: 'counts' })).toContain(
      '1 test changed status across the 2 runs of the full configuration',
    );
  });

  it('reports an infrastructure error as its own outcome, not a verdict on the code', () => {
    const md = named('infra-error');
    expectText(md, {
      has: [
        '⚠️ **Infrastructure error — not a verdict on the code.**',
        'feature/web does not merge onto main',
        '**Jointly necessary:** undetermined',
        '**Fix rate:** — (the full configuration has no result)',
        '- **merge-conflict** in `acme/web` (configuration `web`): `feature/web does not merge onto main` — files: `src/form.ts`',
      ],
      lacks: ['Per repository', 'Resolved**'],
    });
    expect(matrixRows(md).get('full')).toEqual(['✓', '✓', '⚠️ error', '—', '4.2s', 'merge-conflict']);
  });

  it('notes that joint necessity was judged on leave-one-out configurations, and names unnecessary targets', () => {
    const md = named('leave-one-out');
    expectText(md, {
      has: [
        '#### Matrix (leave-one-out)',
        '**Jointly necessary:** no (judged on leave-one-out configurations)',
        '**Unnecessary targets:** `acme/cli`',
        'F2P/P2P lists from the suite',
      ],
    });
    expect([...matrixRows(md).keys()]).toEqual(['base', 'web+cli', 'api+cli', 'api+web', 'full']);
    expect(matrixRows(md).get('web+cli')!.slice(0, 4)).toEqual(['·', '✓', '✓', '❌ fail']);
  });

  it('lists flaky tests with their statuses across the full reruns', () => {
    const md = named('flaky');
    expectText(md, { has: ['#### Flaky tests', '- `web::Form::submits the new field`: passed → failed'] });
    expect(matrixRows(md).get('full')![5]).toBe('2 runs');
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
    expect(matrixRows(md).get('api')).toEqual(['✓', '·', '— not run', '—', '', '']);
  });

  it('caps the failing list at MAX_FAILING_LISTED with "and N more"', () => {
    const md = named(manyFailuresReport(80));
    expect(md.match(/^- `Bulk::case number/gm)).toHaveLength(MAX_FAILING_LISTED);
    expect(md).toContain(`…and ${80 - MAX_FAILING_LISTED} more.`);
    expect(md).not.toContain('Report trimmed');
    expect(md.length).toBeLessThanOrEqual(DEFAULT_MAX_CHARS);
  });

  it('trims to maxChars, dropping failing test names first, and says so', () => {
    const report = manyFailuresReport(80);
    const full = named(report);
    const maxChars = full.length - 100;
    const md = renderMarkdown(report, { reveal: 'names', maxChars });
    expect(md.length).toBeLessThanOrEqual(maxChars);
    expect(md).toContain('✂️ **Report trimmed**');
    expect(md).toContain('failing and flaky test names left out');
    expect(md).not.toContain('Bulk::case number');
    // The verdict and matrix survive.
    expect(md).toContain('❌ **Not resolved**');
    expect(matrixRows(md).get('full')![2]).toBe('❌ fail');
  });

  it('never exceeds maxChars, even when trimming levels are not enough', () => {
    const targets = Array.from({ length: 8 }, (_, i) => `acme/repo${i}`);
    const report = buildReport({
      targets,
      runs: [runOf('base', [], { [T.create]: 'failed' }), runOf('full', targets, { [T.create]: 'passed' })],
    });
    for (const maxChars of [3000, 1200, 300]) {
      const md = renderMarkdown(report, { reveal: 'names', maxChars });
      expect(md.length).toBeLessThanOrEqual(maxChars);
      expect(md).toContain('Report trimmed');
    }
    // 256 planned rows at 3000 chars: the matrix is capped, base and full kept.
    const md = renderMarkdown(report, { reveal: 'names', maxChars: 6000 });
    expect(md).toMatch(/…and \d+ more configurations\./);
    expect(matrixRows(md).has('full')).toBe(true);
    expect(matrixRows(md).has('base')).toBe(true);
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
    expect(md).toContain('### Tandem: ping @\u200badmins \\<script\\>');
    expect(md).toContain('- `` a|b::has `ticks` `` — F2P');
  });
});
