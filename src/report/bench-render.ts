/**
 * Renders the benchmark view: one self-contained HTML file (inline CSS and SVG, no script or
 * external resource, so it opens offline) and a Markdown leaderboard, both from templates/.
 */
import Handlebars from 'handlebars';
import { heatmapSvg, resolvedByRepoCountSvg } from './bench-svg.ts';
import type { BenchView } from './bench-view.ts';
import { loadTemplate } from './templates.ts';

const html = Handlebars.create();
html.registerHelper('inc', (i: number) => i + 1);

// Markdown: no HTML escaping, but table cells must not break on `|` or newlines.
const md = Handlebars.create();
md.registerHelper('inc', (i: number) => i + 1);
md.registerHelper('md', (s: string) => String(s).replace(/\|/g, '\\|').replace(/\s+/g, ' '));

export function renderBenchHtml(view: BenchView): string {
  const template = html.compile(loadTemplate('bench-report.html.hbs'), { strict: true });
  return template({ ...view, byRepoCountSvg: resolvedByRepoCountSvg(view), heatmapSvg: heatmapSvg(view) });
}

export function renderBenchMarkdown(view: BenchView): string {
  const template = md.compile(loadTemplate('bench-report.md.hbs'), { noEscape: true, strict: true });
  return template(view);
}
