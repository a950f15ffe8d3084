/**
 * Markdown rendering through the handlebars templates in templates/: the PR comment the App
 * posts, the job summary the Action writes, and (via check-run-output.ts) the check run.
 *
 * Templates get raw strings from the view model and escape them with the helpers below, so
 * nothing a repository or a test controls (test names, messages, refs) can inject Markdown,
 * HTML or @-mentions. Handlebars' own HTML escaping is off (`noEscape`): it would mangle
 * backticks inside code spans.
 */
import Handlebars from 'handlebars';
import { COMMENT_LIMIT, fitsLimit, fitText, type TextLimit } from '../core/github-limits.ts';
import { NOT_A_VERDICT } from '../core/infra-wording.ts';
import type { Report } from '../core/report.schema.ts';
import { buildReportView, formatDuration, type ReportView, type Reveal } from './report-view.ts';
import { loadPartials, loadTemplate } from './templates.ts';

/** Below GitHub's comment limit (COMMENT_LIMIT), leaving room for the sticky-comment marker. */
export const DEFAULT_MAX_CHARS = COMMENT_LIMIT.max - 536;

export interface MarkdownOptions {
  reveal: Reveal;
  maxChars?: number;
}

const fold = (s: unknown): string =>
  String(s ?? '')
    .replace(/\s+/g, ' ')
    .trim();

const cap = (s: string, max: number): string => (s.length > max ? `${s.slice(0, max - 1)}…` : s);

/** Plain text: backslash-escape Markdown punctuation and break @-mentions. */
export function mdText(value: unknown): string {
  return fold(value)
    .replace(/[\\`*_[\]<>|~]/g, (c) => `\\${c}`)
    .replace(/@(?=\w)/g, '@\u200b');
}

/** An inline code span that survives backticks in its content. */
export function mdCode(value: unknown, max = 300): string {
  const s = cap(fold(value), max);
  const longest = Math.max(0, ...[...s.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  const pad = s.startsWith('`') || s.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${s}${pad}${fence}`;
}

const env = Handlebars.create();
env.registerHelper('text', (v: unknown) => mdText(v));
// In a GFM table a pipe splits the cell even inside a code span; `\|` is the only escape.
env.registerHelper('code', (v: unknown) => mdCode(v));
env.registerHelper('yn', (b: unknown) => (b ? '✅' : '❌'));
env.registerHelper('notes', (r: ReportView['matrix'][number]) =>
  [r.cached ? 'cached' : '', r.runs > 1 ? `${r.runs} runs` : '', r.errorKind ?? '']
    .filter(Boolean)
    .join(', '),
);
env.registerHelper('cellcode', (v: unknown) => mdCode(v).replaceAll('|', '\\|'));
env.registerHelper('duration', (ms: number) => formatDuration(ms));
env.registerHelper('eq', (a: unknown, b: unknown) => a === b);
env.registerHelper('plural', (n: number, one: string, many: string) => (n === 1 ? one : many));
env.registerHelper('join', (items: unknown[], sep: string) => (Array.isArray(items) ? items.join(sep) : ''));
env.registerHelper('outcome', (o: string) => OUTCOME_LABEL[o] ?? o);
env.registerHelper('statuses', (s: string[]) => s.join(' → '));
// The wording every face uses for infrastructure errors (core/infra-wording.ts).
env.registerHelper('notAVerdict', () => NOT_A_VERDICT);

const OUTCOME_LABEL: Record<string, string> = {
  pass: '✅ pass',
  fail: '❌ fail',
  error: '⚠️ error',
  'not-run': '— not run',
};

let partialsRegistered = false;
const compiled = new Map<string, HandlebarsTemplateDelegate<ReportView>>();

/** Renders `templates/<name>` against a view. */
export function renderTemplate(name: string, view: ReportView): string {
  if (!partialsRegistered) {
    for (const [partial, text] of loadPartials()) env.registerPartial(partial, text);
    partialsRegistered = true;
  }
  let tpl = compiled.get(name);
  if (!tpl) {
    tpl = env.compile<ReportView>(loadTemplate(name), { noEscape: true, strict: false });
    compiled.set(name, tpl);
  }
  // Collapse the blank-line runs that skipped sections leave behind.
  return `${tpl(view)
    .replace(/\n{3,}/g, '\n\n')
    .trim()}\n`;
}

/** How much each trimming level keeps. Level 0 is everything. */
const LEVELS = [
  { names: true, matrix: Infinity, infra: Infinity, message: 300, rows: Infinity },
  { names: false, matrix: Infinity, infra: Infinity, message: 300, rows: Infinity },
  { names: false, matrix: 64, infra: 10, message: 200, rows: 50 },
  { names: false, matrix: 16, infra: 3, message: 120, rows: 10 },
] as const;

export const TRIM_LEVELS = LEVELS.length;

/** Keeps the first rows and the full configuration's row (last); counts what was dropped. */
function capMatrix(rows: ReportView['matrix'], max: number): { rows: ReportView['matrix']; more: number } {
  if (rows.length <= max) return { rows, more: 0 };
  const full = rows.filter((r) => r.role === 'full');
  const kept = rows.filter((r) => r.role !== 'full').slice(0, max - full.length);
  return { rows: [...kept, ...full], more: rows.length - kept.length - full.length };
}

/** A smaller view: failing-test lists go first, then long tables and messages are capped. */
export function trimView(view: ReportView, level: number): ReportView {
  if (level <= 0) return view;
  const l = LEVELS[Math.min(level, LEVELS.length - 1)]!;
  const trimmed: string[] = [];
  const out: ReportView = { ...view };
  if (!l.names && (view.failingGroups.length > 0 || view.flaky.length > 0 || view.brokenGroups.length > 0)) {
    out.failingGroups = [];
    out.failingMore = 0;
    out.flaky = [];
    out.brokenGroups = [];
    trimmed.push('failing and flaky test names left out');
  }
  const m = capMatrix(view.matrix, l.matrix);
  if (m.more > 0) {
    out.matrix = m.rows;
    out.matrixMore = view.matrixMore + m.more;
    trimmed.push(`${m.more} matrix rows left out`);
  }
  if (view.infraErrors.length > l.infra) {
    out.infraErrors = view.infraErrors.slice(0, l.infra);
    out.infraMore = view.infraMore + view.infraErrors.length - l.infra;
    trimmed.push(`${out.infraMore} infrastructure errors left out`);
  }
  out.infraErrors = out.infraErrors.map((e) => ({
    ...e,
    message: cap(e.message, l.message),
    files: e.files.slice(0, 5),
  }));
  if (view.targets.length > l.rows || view.repositories.length > l.rows || view.context.length > l.rows) {
    out.targets = view.targets.slice(0, l.rows);
    out.repositories = view.repositories.slice(0, l.rows);
    out.context = view.context.slice(0, l.rows);
    trimmed.push('target, context and repository tables shortened');
  }
  out.trimmed = [...view.trimmed, ...(trimmed.length > 0 ? trimmed : ['details shortened'])];
  return out;
}

const HARD_CUT_NOTICE =
  '\n\n> ✂️ **Report trimmed**: cut at the size limit. The JSON report has everything.\n';

/**
 * Renders at increasing trimming levels until the text fits `limit` (characters or bytes, as
 * GitHub counts for that field); as a last resort cuts the text and appends a notice, so the
 * result never exceeds the limit.
 */
export function renderFitted(template: string, view: ReportView, limit: TextLimit): string {
  let text = '';
  for (let level = 0; level < TRIM_LEVELS; level++) {
    text = renderTemplate(template, trimView(view, level));
    if (fitsLimit(text, limit)) return text;
  }
  return fitText(text, limit, HARD_CUT_NOTICE);
}

/** The report as Markdown: verdict, matrix, per-repository metrics, failing tests, errors, targets. */
export function renderMarkdown(report: Report, options: MarkdownOptions): string {
  const view = buildReportView(report, { reveal: options.reveal });
  return renderFitted('report.md.hbs', view, { max: options.maxChars ?? DEFAULT_MAX_CHARS, unit: 'chars' });
}
