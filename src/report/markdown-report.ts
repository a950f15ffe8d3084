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
import { capText as cap, mdCode, mdFence, mdText } from './markdown-escape.ts';
import { selectMatrixRows } from './matrix-rows.ts';
import { buildReportView, formatDuration, type ReportView, type Reveal } from './report-view.ts';
import { loadPartials, loadTemplate } from './templates.ts';
import { verdictLine } from './verdict-line.ts';

/** Below GitHub's comment limit (COMMENT_LIMIT), leaving room for the sticky-comment marker. */
export const DEFAULT_MAX_CHARS = COMMENT_LIMIT.max - 536;

export interface MarkdownOptions {
  reveal: Reveal;
  maxChars?: number;
  /** Instead of maxChars: a limit in bytes (the Action's job summary, a check run). */
  limit?: TextLimit;
  /** What the face knows beyond the report: the linked PRs line and the footer's links. */
  extras?: ViewExtras;
}

export interface ViewExtras {
  /** Markdown, already escaped: the linked PRs with their heads and the merge order. */
  setLine?: string;
  checkRunUrl?: string;
  jsonReportUrl?: string;
  rerunCommand?: string;
  /** Columns and tables in this order (the suite's `merge_order`). */
  order?: readonly string[];
  /** The PR head commits (full SHAs): quoted and linked instead of Tandem's merge commits. */
  prHeads?: ReadonlyArray<{ repo: string; sha: string }>;
  /** Commits are linked under this origin (`https://github.com`). */
  webUrl?: string;
  /** How each target's change is named (`acme/web#7`): the App's PRs. */
  changeLabels?: ReadonlyArray<{ repo: string; label: string }>;
  /** Who can see test names that `reveal: counts` hides, in this face's words. */
  hiddenNamesNote?: string;
  /** The suite's path in the evaluator repository, named when the suite is invalid. */
  suitePath?: string;
}

/** Only http(s) URLs, percent-encoded so that `<…>` link syntax cannot be closed early. */
function safeUrl(url: string | undefined): string | undefined {
  if (!url || !/^https?:\/\//i.test(url)) return undefined;
  return encodeURI(decodeURI(url)).replace(/[<>]/g, encodeURIComponent);
}

/** The view of a report with the face's extras. */
export function viewWithExtras(report: Report, reveal: Reveal, extras: ViewExtras = {}): ReportView {
  const webUrl = safeUrl(extras.webUrl);
  const view = buildReportView(report, {
    reveal,
    ...(extras.order ? { order: extras.order } : {}),
    ...(extras.prHeads ? { prHeads: extras.prHeads } : {}),
    ...(extras.changeLabels ? { changeLabels: extras.changeLabels } : {}),
    ...(webUrl ? { webUrl: webUrl.replace(/\/+$/, '') } : {}),
    ...(extras.suitePath ? { suitePath: extras.suitePath } : {}),
  });
  const checkRunUrl = safeUrl(extras.checkRunUrl);
  const jsonReportUrl = safeUrl(extras.jsonReportUrl);
  return {
    ...view,
    ...(extras.setLine ? { setLine: extras.setLine } : {}),
    ...(extras.hiddenNamesNote ? { hiddenNamesNote: extras.hiddenNamesNote } : {}),
    footer: {
      ...view.footer,
      ...(checkRunUrl ? { checkRunUrl } : {}),
      ...(jsonReportUrl ? { jsonReportUrl } : {}),
      // A merge conflict is fixed by updating the PR (which re-evaluates), never by a re-run.
      ...(extras.rerunCommand && view.conflicts.length === 0 ? { rerunCommand: extras.rerunCommand } : {}),
    },
  };
}

export { mdCode, mdText };

const env = Handlebars.create();
env.registerHelper('text', (v: unknown) => mdText(v));
// In a GFM table a pipe splits the cell even inside a code span; `\|` is the only escape.
env.registerHelper('code', (v: unknown) => mdCode(v));
env.registerHelper('notes', (r: ReportView['matrix'][number]) =>
  [r.cached ? 'cached' : '', r.runs > 1 ? `${r.runs} runs` : ''].filter(Boolean).join(', '),
);
// A configuration judged against what a jointly necessary change expects: only `full` passes.
env.registerHelper('judged', (r: ReportView['matrix'][number]) => {
  if (r.outcome === 'not-run') return '— not run';
  if (r.outcome === 'error') return `⚠️ error${r.errorKind ? ` (${r.errorKind})` : ''}`;
  if (r.role === 'full') return r.outcome === 'pass' ? '✅ passes' : '❌ fails';
  return r.outcome === 'fail' ? '➖ fails, as expected' : '⚠️ passes: unexpected';
});
// A commit as a reader can find it: short, linked to `<webUrl>/<repo>/commit/<sha>` when the face knows the host.
env.registerHelper('commit', (repo: unknown, sha: unknown, options: Handlebars.HelperOptions) => {
  const full = String(sha ?? '');
  if (!full) return '';
  const code = mdCode(full.slice(0, 7));
  const web = (options.data?.root as ReportView | undefined)?.webUrl;
  return web && /^[0-9a-f]{7,40}$/i.test(full) && /^[\w.-]+\/[\w.-]+$/.test(String(repo))
    ? `[${code}](<${web}/${repo}/commit/${full}>)`
    : code;
});
env.registerHelper('verdictLine', (view: ReportView) => verdictLine(view));
env.registerHelper('fence', (lines: string[]) => mdFence(lines, '  '));
env.registerHelper('cellcode', (v: unknown) => mdCode(v).replaceAll('|', '\\|'));
env.registerHelper('duration', (ms: number) => formatDuration(ms));
env.registerHelper('eq', (a: unknown, b: unknown) => a === b);
env.registerHelper('plural', (n: number, one: string, many: string) => (n === 1 ? one : many));
env.registerHelper('join', (items: unknown[], sep: string) => (Array.isArray(items) ? items.join(sep) : ''));
env.registerHelper('list', (items: unknown[]) => {
  const names = (Array.isArray(items) ? items : []).map((i) => mdCode(i));
  return names.length <= 1 ? names.join('') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
});
env.registerHelper('statuses', (s: string[]) => s.join(' → '));
// The wording every face uses for infrastructure errors (core/infra-wording.ts).
env.registerHelper('notAVerdict', () => NOT_A_VERDICT);

let partialsRegistered = false;
const compiled = new Map<string, HandlebarsTemplateDelegate<ReportView>>();

/** `templates/<name>`, compiled once, with the partials registered. */
function templateOf(name: string): HandlebarsTemplateDelegate<ReportView> {
  if (!partialsRegistered) {
    for (const [partial, text] of loadPartials()) env.registerPartial(partial, text);
    partialsRegistered = true;
  }
  let tpl = compiled.get(name);
  if (!tpl) {
    tpl = env.compile<ReportView>(loadTemplate(name), { noEscape: true, strict: false });
    compiled.set(name, tpl);
  }
  return tpl;
}

/**
 * Renders a template that is not a report (a sticky comment's notice line) against its own
 * context, with the same helpers; strings the context holds are Markdown the caller escaped.
 */
export function renderLineTemplate(name: string, context: object): string {
  return (templateOf(name) as HandlebarsTemplateDelegate<object>)(context).trim();
}

/** Renders `templates/<name>` against a view. */
export function renderTemplate(name: string, view: ReportView): string {
  const tpl = templateOf(name);
  // Collapse the blank-line runs that skipped sections leave behind.
  return `${tpl(selectMatrixRows(view))
    .replace(/\n{3,}/g, '\n\n')
    .trim()}\n`;
}

/** How much each trimming level keeps. Level 0 is everything. */
const LEVELS = [
  { messages: true, names: true, matrix: Infinity, infra: Infinity, message: 300, rows: Infinity },
  { messages: false, names: true, matrix: Infinity, infra: Infinity, message: 300, rows: Infinity },
  { messages: false, names: false, matrix: Infinity, infra: Infinity, message: 300, rows: Infinity },
  { messages: false, names: false, matrix: 8, infra: 10, message: 200, rows: 50 },
  { messages: false, names: false, matrix: 2, infra: 3, message: 120, rows: 10 },
] as const;

export const TRIM_LEVELS = LEVELS.length;

/** A smaller view: failing-test lists go first, then long tables and messages are capped. */
export function trimView(view: ReportView, level: number): ReportView {
  if (level <= 0) return view;
  const l = LEVELS[Math.min(level, LEVELS.length - 1)]!;
  const trimmed: string[] = [];
  const out: ReportView = { ...view };
  if (!l.messages && view.failing.some((t) => t.message.length > 0)) {
    out.failing = view.failing.map((t) => ({ ...t, message: [] }));
    trimmed.push('failure messages left out');
  }
  if (!l.names && (view.failing.length > 0 || view.flaky.length > 0 || view.brokenGroups.length > 0)) {
    out.failing = [];
    out.failingMore = 0;
    out.flaky = [];
    out.brokenGroups = [];
    trimmed.push('failing and flaky test names left out');
  }
  if (l.matrix < view.matrixCap) {
    out.matrixCap = l.matrix;
    trimmed.push('fewer matrix rows listed');
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
    out.repoRows = view.repoRows.slice(0, l.rows);
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
  const view = viewWithExtras(report, options.reveal, options.extras);
  const limit = options.limit ?? { max: options.maxChars ?? DEFAULT_MAX_CHARS, unit: 'chars' as const };
  return renderFitted('report.md.hbs', view, limit);
}
