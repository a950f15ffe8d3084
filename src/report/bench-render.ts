/**
 * Renders the benchmark view: one self-contained HTML file (inline CSS and SVG, no script or
 * external resource, so it opens offline) and a Markdown leaderboard, both from templates/.
 */
import Handlebars from 'handlebars';
import { heatmapSvg, resolvedByRepoCountSvg } from './bench-svg.ts';
import type { BenchView } from './bench-view.ts';
import { mdText } from './markdown-escape.ts';
import { loadTemplate } from './templates.ts';

const html = Handlebars.create();
html.registerHelper('inc', (i: number) => i + 1);

// Markdown: model names and instance ids are whatever a predictions file says, so they are
// Markdown-escaped text (no raw HTML, no link, no `|` breaking a table cell).
const md = Handlebars.create();
md.registerHelper('inc', (i: number) => i + 1);
md.registerHelper('md', (s: string) => mdText(s));

export function renderBenchHtml(view: BenchView): string {
  const template = html.compile(loadTemplate('bench-report.html.hbs'), { strict: true });
  return template({ ...view, byRepoCountSvg: resolvedByRepoCountSvg(view), heatmapSvg: heatmapSvg(view) });
}

export function renderBenchMarkdown(view: BenchView): string {
  const template = md.compile(loadTemplate('bench-report.md.hbs'), { noEscape: true, strict: true });
  return template(view);
}
