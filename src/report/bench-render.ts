/**
 * Renders the benchmark view: one self-contained HTML file (inline CSS and SVG, no script or
 * external resource, so it opens offline) and a Markdown leaderboard, both from templates/.
 */
import Handlebars from 'handlebars';
import { CELL_COLORS, heatmapSvg, resolvedByRepoCountSvg } from './bench-svg.ts';
import type { BenchView, CellKind } from './bench-view.ts';
import { mdText } from './markdown-escape.ts';
import { loadTemplate } from './templates.ts';

const html = Handlebars.create();
html.registerHelper('inc', (i: number) => i + 1);
// Only `full` is expected to pass; a failing base or partial configuration is as expected, not red.
html.registerHelper('rowClass', (id: string, outcome: string) =>
  id !== 'full' && outcome === 'fail' ? 'o-expected' : `o-${outcome}`,
);

/** What each heatmap colour means, in the heatmap's own colours. */
const LEGEND: Array<{ kind: CellKind; label: string }> = [
  { kind: 'resolved', label: 'resolved' },
  { kind: 'unresolved', label: 'not resolved' },
  { kind: 'empty-patch', label: 'empty patch' },
  { kind: 'error', label: 'error (counts as not resolved)' },
  { kind: 'missing', label: 'no prediction' },
];

// Markdown: model names and instance ids are whatever a predictions file says, so they are
// Markdown-escaped text (no raw HTML, no link, no `|` breaking a table cell).
const md = Handlebars.create();
md.registerHelper('inc', (i: number) => i + 1);
md.registerHelper('md', (s: string) => mdText(s));

export function renderBenchHtml(view: BenchView, options: { generatedAt?: Date } = {}): string {
  const template = html.compile(loadTemplate('bench-report.html.hbs'), { strict: true });
  return template({
    ...view,
    byRepoCountSvg: resolvedByRepoCountSvg(view),
    heatmapSvg: heatmapSvg(view),
    legend: LEGEND.map((l) => ({ ...l, color: CELL_COLORS[l.kind] })),
    runIds: [...new Set(view.leaderboard.map((r) => r.runId))],
    generatedAt: (options.generatedAt ?? new Date()).toISOString().replace(/\.\d+Z$/, 'Z'),
  });
}

export function renderBenchMarkdown(view: BenchView): string {
  const template = md.compile(loadTemplate('bench-report.md.hbs'), { noEscape: true, strict: true });
  return template(view);
}
