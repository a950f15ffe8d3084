/**
 * Report → view model: every decision about what a reader sees (labels, icons, counts, what
 * `reveal: 'counts'` hides) is made here, so templates only lay out and escape. The view holds
 * raw strings; the Markdown renderer escapes them, the terminal table prints them.
 */
import { workspaceName } from '../core/case.schema.ts';
import type { GradedConfiguration } from '../core/grade.schema.ts';
import { planMatrix } from '../core/matrix-plan.ts';
import { sameRepo } from '../core/repo-name.ts';
import type { Report } from '../core/report.schema.ts';
import { groupOfTestId } from '../core/test-id.ts';
import { brokenLabel } from '../core/unrunnable-tests.ts';

/**
 * `counts`: only numbers (public PRs, hidden tests). `names`: failing and flaky test names too.
 * `messages`: names and the first lines of each failure message (already through the leak filter:
 * the engine filters every report it returns).
 */
export type Reveal = 'counts' | 'names' | 'messages';

export interface MatrixRowView {
  id: string;
  role: 'base' | 'partial' | 'full';
  /** One per target column: true when that target's PR is applied (head). */
  applied: boolean[];
  outcome: 'pass' | 'fail' | 'error' | 'not-run';
  /** full is expected to pass, every other configuration to fail (a jointly necessary change). */
  asExpected: boolean;
  /** The first letters of the columns applied, `·` for base (`AB·D`): one cell for any N. */
  letters: string;
  passed: number;
  total: number;
  durationMs: number;
  cached: boolean;
  runs: number;
  errorKind?: string;
  /** Why groups ran no test here ("build failed"), Tandem's words only. */
  ranNoTest?: string;
}

export interface FailingTestView {
  /** The test group (usually a repository's short name). */
  group: string;
  /** Readable: `Class › name`, or the name alone when the reporter gives no class. */
  name: string;
  kind: 'F2P' | 'P2P';
  status: string;
  /** With `reveal: messages`: the first lines of why it failed. */
  message: string[];
}

export interface ReportView {
  name: string;
  outcome: Report['outcome'];
  /** The evaluator's suite is wrong: said instead of any failing test. */
  invalidSuite?: {
    message: string;
    fields: string[];
    suitePath?: string;
    /** The first few listed ids never reported; empty under `counts`. */
    ids: string[];
    count: number;
    more: number;
  };
  summary: string;
  /** The full configuration has a result: fix rate and per-repository metrics mean something. */
  judged: boolean;
  /** report.summary says more than "complete". */
  hasSummary: boolean;
  /** `n/a`: one target, so there is no other PR to need. */
  jointlyNecessary: 'yes' | 'no' | 'undetermined' | 'n/a (one target)';
  leaveOneOut: boolean;
  unnecessary: string[];
  fixRate: number;
  fixRatePercent: string;
  f2p: { passed: number; total: number; failing: number };
  p2p: { passed: number; total: number; failing: number };
  listsSource: string;
  ignored: number;
  /** Test ids only runs of PR code reported: never judged, never named (issue 18 item 6). */
  seenOnlyWithPr: number;
  columns: Array<{ repo: string; short: string }>;
  matrix: MatrixRowView[];
  ran: number;
  asExpected: number;
  /** Configurations that ran into an infrastructure error: no result, not judged. */
  errored: number;
  /** Rows dropped by trimming. */
  matrixMore: number;
  repositories: Report['repositories'];
  reveal: Reveal;
  /** Failing expected tests in full, P2P regressions first; empty under `counts` or after trimming. */
  failing: FailingTestView[];
  failingCount: number;
  failingMore: number;
  /** Test groups of the full configuration that did not report, described from their status only. */
  brokenGroups: Array<{ name: string; status: string; detail: string }>;
  flaky: Array<{ id: string; statuses: string[] }>;
  flakyCount: number;
  fullRuns: number;
  infraErrors: Array<{
    kind: string;
    target?: string;
    configuration?: string;
    message: string;
    files: string[];
  }>;
  infraMore: number;
  targets: Array<{
    repo: string;
    kind: string;
    baseRef?: string;
    baseSha: string;
    headRef?: string;
    headSha?: string;
    /** Full commits, for links: the base, and the PR's own head (never Tandem's merge of it). */
    baseCommit: string;
    headCommit?: string;
    patch?: string;
    error?: string;
  }>;
  context: Array<{ repo: string; ref: string; sha: string }>;
  partial?: { shard: string; ran: number; planned: number };
  tool: string;
  suite: string;
  sandbox: string;
  durationMs: number;
  matrixMode: string;
  /** Set by trimming: what was left out. */
  trimmed: string[];
  /** Per-repository rows for the summary table (failing counts precomputed). */
  repoRows: Array<{ repo: string; aggregate?: boolean; f2p: string; p2p: string; ok: boolean; note: string }>;
  /** Column letters (A, B, …) with their repositories, for the compact matrix. */
  legend: Array<{ letter: string; repo: string }>;
  /** More than three targets: one `Applied` cell per row instead of one column per target. */
  compact: boolean;
  /** Configurations folded into the summary line (as expected, not listed one by one). */
  folded: number;
  /** Whether the joint-necessity line says anything: only a resolved change can be jointly necessary. */
  showJointlyNecessary: boolean;
  /** The failing-tests section has something to show (names are revealed). */
  failingListed: boolean;
  /** Targets whose PR does not merge onto its base (a merge conflict): updating it re-evaluates. */
  conflicts: string[];
  /** Where commits are linked (`https://github.com`): `<webUrl>/<repo>/commit/<sha>`. */
  webUrl?: string;
  /** At most this many matrix rows are listed (trimming lowers it); `full` always is. */
  matrixCap: number;
  /** Set by the face (Markdown, already escaped): the linked PRs, heads and merge order. */
  setLine?: string;
  /** Line 2 of a resolved change: the targets it does not need, as the face names them (`acme/web#7`). */
  notNeeded: string[];
  /** Test names are hidden by `reveal: counts` while some test fails or flakes: say so, and who sees them. */
  namesHidden: boolean;
  /** Set by the face: who can see the hidden names (the App: readers of the evaluator repository). */
  hiddenNamesNote?: string;
  /** Targets the suite has no test for (no F2P and no P2P test counted in their repository). */
  untested: string[];
  /** The joint-necessity legend under the matrix: only when there are partial configurations. */
  showJointLegend: boolean;
  footer: FooterView;
}

/** The last line: which heads the report is for, where to read more, how to re-run. */
export interface FooterView {
  /** `sha` short; `commit` full (for the link) and `fullRepo` (`owner/name`). */
  heads: Array<{ repo: string; sha: string; commit: string; fullRepo: string }>;
  checkRunUrl?: string;
  jsonReportUrl?: string;
  /** The App's `/tandem run`; the CLI and the Action have no command to offer. */
  rerunCommand?: string;
}

export const shortSha = (sha: string | undefined): string => (sha ? sha.slice(0, 7) : '');

/** A ref that is a commit (the App names PR heads and base tips by SHA): shown as a short SHA, not a ref. */
export const isFullSha = (ref: string | undefined): boolean => /^[0-9a-f]{40}$/i.test(ref ?? '');

export interface ViewOptions {
  reveal: Reveal;
  /** Targets in this order (`merge_order`, producers first) for columns, legend and tables. */
  order?: readonly string[];
  /** The PR head commits, when the face knows them (the App): quoted instead of merge commits. */
  prHeads?: ReadonlyArray<{ repo: string; sha: string }>;
  /** How the face names a target's change (`acme/web#7`, the App's PR); default the repository. */
  changeLabels?: ReadonlyArray<{ repo: string; label: string }>;
  webUrl?: string;
  /** The suite's path in the evaluator repository (the App), named when the suite is invalid. */
  suitePath?: string;
}

/** Unmatched ids an invalid suite's verdict names (with `reveal` past `counts`). */
const INVALID_IDS_NAMED = 5;

/** The commit a reader can find for a target's head: the PR's own (a SHA ref), never a merge of it. */
function headCommitOf(t: Report['targets'][number], prHeads: ViewOptions['prHeads']): string | undefined {
  const known = prHeads?.find((h) => sameRepo(h.repo, t.repo))?.sha;
  if (known) return known;
  if (isFullSha(t.head?.ref)) return t.head?.ref;
  return t.head?.sha;
}

/** Repository names in display order: those `order` names first, in its order, then the rest. */
function displayOrder(repos: string[], order: readonly string[] | undefined): string[] {
  if (!order || order.length === 0) return repos;
  const rank = (r: string) => {
    const i = order.findIndex((o) => sameRepo(o, r));
    return i < 0 ? order.length : i;
  };
  return [...repos].sort((a, b) => rank(a) - rank(b));
}

export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)}ms`;
  const s = ms / 1000;
  if (s < 60) return `${s.toFixed(1)}s`;
  const m = Math.floor(s / 60);
  const rest = Math.round(s - m * 60);
  return m < 60 ? `${m}m ${String(rest).padStart(2, '0')}s` : `${Math.floor(m / 60)}h ${m % 60}m`;
}

/** Column headers: the short name, unless two targets share it. */
function columnsOf(repos: string[]): ReportView['columns'] {
  const shorts = repos.map(workspaceName);
  return repos.map((repo, i) => ({
    repo,
    short: shorts.filter((s) => s === shorts[i]).length > 1 ? repo : shorts[i]!,
  }));
}

/** Planned in the report's target order (ids depend on it); columns in `repos`' (display) order. */
function matrixRows(report: Report, repos: string[]): MatrixRowView[] {
  const planRepos = report.targets.map((t) => t.repo);
  const byId = new Map(report.configurations.map((c) => [c.id, c]));
  let planned: Array<{ id: string; applied: string[]; role: MatrixRowView['role'] }> = [];
  try {
    const plan = planMatrix(planRepos, report.matrix.mode);
    const wanted = new Set(report.matrix.planned);
    planned = plan.configurations.filter((c) => wanted.has(c.id) || byId.has(c.id));
  } catch {
    // No targets (a report of a failed resolution): show only what ran.
  }
  const rows: MatrixRowView[] = planned.map((p) => {
    const c = byId.get(p.id);
    return c ? row(c, repos) : notRun(p, repos);
  });
  for (const c of report.configurations) if (!planned.some((p) => p.id === c.id)) rows.push(row(c, repos));
  return rows.sort(byMergeOrder);
}

/**
 * Rows read in merge order: base first, then fewer changes before more, and among as many the
 * ones applying earlier columns (producers, by `merge_order`) first; `full` last.
 */
function byMergeOrder(a: MatrixRowView, b: MatrixRowView): number {
  const count = (r: MatrixRowView) => r.applied.filter(Boolean).length;
  if (count(a) !== count(b)) return count(a) - count(b);
  for (let i = 0; i < a.applied.length; i++) if (a.applied[i] !== b.applied[i]) return a.applied[i] ? -1 : 1;
  return 0;
}

function row(c: GradedConfiguration, repos: string[]): MatrixRowView {
  const expected = c.role === 'full' ? 'pass' : 'fail';
  const applied = repos.map((r) => c.applied.includes(r));
  const broken = c.groups.filter((g) => g.status === 'broken').map((g) => brokenLabel(g.reason));
  return {
    id: c.id,
    role: c.role,
    applied,
    letters: lettersOf(applied),
    outcome: c.outcome,
    asExpected: c.outcome === expected,
    passed: c.passed,
    total: c.total,
    durationMs: c.durationMs,
    cached: c.cached,
    runs: c.runs,
    ...(c.error ? { errorKind: c.error.kind } : {}),
    ...(broken.length > 0 ? { ranNoTest: [...new Set(broken)].join(', ') } : {}),
  };
}

function notRun(
  p: { id: string; applied: string[]; role: MatrixRowView['role'] },
  repos: string[],
): MatrixRowView {
  const applied = repos.map((r) => p.applied.includes(r));
  return {
    id: p.id,
    role: p.role,
    applied,
    letters: lettersOf(applied),
    outcome: 'not-run',
    asExpected: false,
    passed: 0,
    total: 0,
    durationMs: 0,
    cached: false,
    runs: 0,
  };
}

/** At most this many failing tests are named; the rest are counted ("and N more"). */
export const MAX_FAILING_LISTED = 50;
/** Matrix rows listed one by one at most; the rest are a summary line (256 rows for 8 PRs). */
export const MATRIX_LISTED = 16;
/** With `reveal: messages`: lines of each failure message shown, and their width. */
export const MESSAGE_LINES = 3;
const MESSAGE_WIDTH = 160;

const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const letterOf = (i: number): string => LETTERS[i] ?? String(i + 1);

function lettersOf(applied: boolean[]): string {
  return applied.map((a, i) => (a ? letterOf(i) : '·')).join('');
}

/** `api::::name` (node's JUnit reporter has no class) reads `name`; `api::Users::adds` → `Users › adds`. */
export function readableTestName(id: string): { group: string; name: string } {
  const group = groupOfTestId(id);
  const rest = id.length > group.length ? id.slice(group.length + 2) : id;
  const sep = rest.indexOf('::');
  if (sep < 0) return { group, name: rest };
  const cls = rest.slice(0, sep).trim();
  const name = rest.slice(sep + 2).trim();
  return { group, name: cls ? `${cls} › ${name}` : name };
}

function messageLines(reason: string | undefined): string[] {
  return (reason ?? '')
    .split(/\r?\n/)
    .map((l) => l.trimEnd())
    .filter((l) => l.trim() !== '')
    .slice(0, MESSAGE_LINES)
    .map((l) => (l.length > MESSAGE_WIDTH ? `${l.slice(0, MESSAGE_WIDTH - 1)}…` : l));
}

function failing(
  full: GradedConfiguration | undefined,
  reveal: Reveal,
): Pick<ReportView, 'failing' | 'failingCount' | 'failingMore'> {
  const bad = (full?.tests ?? []).filter((t) => t.status !== 'passed');
  // P2P regressions first: they say what the change broke, and a cap must never hide them all.
  const listed = [...bad].sort((a, b) => (a.kind === b.kind ? 0 : a.kind === 'P2P' ? -1 : 1));
  return {
    failing: listed.slice(0, MAX_FAILING_LISTED).map((t) => ({
      ...readableTestName(t.id),
      kind: t.kind,
      status: t.status,
      message: reveal === 'messages' ? messageLines(t.reason) : [],
    })),
    failingCount: bad.length,
    failingMore: Math.max(0, bad.length - MAX_FAILING_LISTED),
  };
}

/** Described from the group's status and exit code only: engine reasons may quote test output. */
function brokenGroups(full: GradedConfiguration | undefined): ReportView['brokenGroups'] {
  const describe: Record<string, string> = {
    crashed: 'ended without a usable result file',
    timeout: 'timed out',
    oom: 'was killed for exceeding its memory limit',
    'setup-failed': 'did not run: a setup step failed',
    'not-run': 'did not run: the configuration stopped first',
    broken: 'ran no test: its tests did not build, collect or load',
  };
  return (full?.groups ?? [])
    .filter((g) => g.status !== 'reported')
    .map((g) => ({
      name: g.name,
      status: g.status,
      detail: `${describe[g.status] ?? g.status}${g.exitCode !== null ? ` (exit ${g.exitCode})` : ''}`,
    }));
}

/** Past this many repositories, the ones that succeed share one row: the table shows what fails. */
export const REPO_ROWS_LISTED = 4;

function repoRows(repos: Report['repositories']): ReportView['repoRows'] {
  const rows = repos.map(repoRow);
  const ok = repos.filter((r) => r.success);
  if (repos.length <= REPO_ROWS_LISTED || ok.length < 2) return rows;
  const sum = (pick: (r: Report['repositories'][number]) => number) => ok.reduce((n, r) => n + pick(r), 0);
  return [
    ...rows.filter((r) => !r.ok),
    {
      repo: ok.length === repos.length ? `all ${ok.length} repositories` : `${ok.length} other repositories`,
      aggregate: true,
      f2p: `${sum((r) => r.f2p.passed)}/${sum((r) => r.f2p.total)}`,
      p2p: `${sum((r) => r.p2p.passed)}/${sum((r) => r.p2p.total)}`,
      ok: true,
      note: '',
    },
  ];
}

function repoRow(r: Report['repositories'][number]): ReportView['repoRows'][number] {
  const f2pFailing = r.f2p.total - r.f2p.passed;
  const p2pFailing = r.p2p.total - r.p2p.passed;
  const note = [
    f2pFailing > 0 ? `${f2pFailing} F2P still failing` : '',
    p2pFailing > 0 ? `${p2pFailing} P2P regressed` : '',
  ]
    .filter(Boolean)
    .join(', ');
  return {
    repo: r.repo,
    f2p: `${r.f2p.passed}/${r.f2p.total}`,
    p2p: `${r.p2p.passed}/${r.p2p.total}`,
    ok: r.success,
    note,
  };
}

export function buildReportView(report: Report, options: ViewOptions): ReportView {
  const repos = displayOrder(
    report.targets.map((t) => t.repo),
    options.order,
  );
  const targetsShown = repos.map((r) => report.targets.find((t) => t.repo === r)!);
  const full = report.configurations.find((c) => c.role === 'full');
  const names = options.reveal !== 'counts';
  // An invalid suite lists no failing test: none of them is the code's doing.
  const f = report.invalidSuite
    ? { failing: [], failingCount: 0, failingMore: 0 }
    : failing(full, options.reveal);
  const columns = columnsOf(repos);
  const judgedError = report.outcome === 'error';
  return {
    name: report.name,
    outcome: report.outcome,
    ...invalidSuiteView(report, options),
    summary: report.summary,
    judged: !judgedError,
    hasSummary: report.summary !== 'complete',
    ...verdictView(report),
    ...testCountsView(report, full),
    columns,
    ...matrixView(report, repos),
    repositories: judgedError ? [] : report.repositories,
    reveal: options.reveal,
    failing: names ? f.failing : [],
    failingCount: f.failingCount,
    failingMore: names ? f.failingMore : 0,
    brokenGroups: names ? brokenGroups(full) : [],
    flaky: names ? report.flaky : [],
    flakyCount: report.flaky.length,
    fullRuns: full?.runs ?? 0,
    infraErrors: infraErrorsView(report),
    infraMore: 0,
    targets: targetsShown.map((t) => targetView(t, options)),
    context: report.context.map((c) => ({ repo: c.repo, ref: c.ref, sha: shortSha(c.sha) })),
    tool: `${report.tool.name} ${report.tool.version}`,
    suite: report.suite.name,
    sandbox: report.sandbox,
    durationMs: report.durationMs,
    matrixMode: report.matrix.mode,
    trimmed: [],
    repoRows: judgedError ? [] : repoRows(report.repositories),
    legend: repos.map((repo, i) => ({ letter: letterOf(i), repo })),
    compact: repos.length > 3,
    folded: 0,
    matrixCap: MATRIX_LISTED,
    conflicts: conflictsOf(report),
    showJointlyNecessary: report.outcome === 'resolved',
    notNeeded: notNeeded(report, options),
    namesHidden: !names && (f.failingCount > 0 || report.flaky.length > 0),
    untested: judgedError ? [] : untestedTargets(report, repos),
    showJointLegend: repos.length > 1,
    failingListed: names && f.failingCount > 0,
    ...(options.webUrl ? { webUrl: options.webUrl } : {}),
    footer: {
      heads: targetsShown.flatMap((t, i) => {
        const commit = headCommitOf(t, options.prHeads);
        return commit ? [{ repo: columns[i]!.short, sha: shortSha(commit), commit, fullRepo: t.repo }] : [];
      }),
    },
  };
}

/** An invalid suite: its message and fields, and the unmatched ids when names may be shown. */
export function invalidSuiteView(report: Report, options: ViewOptions): Pick<ReportView, 'invalidSuite'> {
  const invalid = report.invalidSuite;
  if (!invalid) return {};
  const names = options.reveal !== 'counts';
  const ids = names ? invalid.unmatched.slice(0, INVALID_IDS_NAMED) : [];
  return {
    invalidSuite: {
      message: invalid.message,
      fields: invalid.fields,
      ...(options.suitePath ? { suitePath: options.suitePath } : {}),
      ids,
      count: invalid.unmatched.length,
      more: names ? invalid.unmatched.length - ids.length : 0,
    },
  };
}

/** The verdict's words: joint necessity, its basis, the members not needed, the fix rate. */
export function verdictView(
  report: Report,
): Pick<ReportView, 'jointlyNecessary' | 'leaveOneOut' | 'unnecessary' | 'fixRate' | 'fixRatePercent'> {
  const jn = report.verdict.jointlyNecessary;
  return {
    jointlyNecessary:
      report.targets.length === 1 ? 'n/a (one target)' : jn === null ? 'undetermined' : jn ? 'yes' : 'no',
    leaveOneOut: report.verdict.jointlyNecessaryBasis === 'leave-one-out',
    unnecessary: report.verdict.unnecessary,
    fixRate: report.verdict.fixRate,
    fixRatePercent: `${Math.round(report.verdict.fixRate * 1000) / 10}%`,
  };
}

/** F2P and P2P counts of the full configuration, and where the lists came from. */
export function testCountsView(
  report: Report,
  full: Report['configurations'][number] | undefined,
): Pick<ReportView, 'f2p' | 'p2p' | 'listsSource' | 'ignored' | 'seenOnlyWithPr'> {
  const f2p = full?.f2p ?? { passed: 0, total: report.tests.failToPass.length };
  const p2p = full?.p2p ?? { passed: 0, total: report.tests.passToPass.length };
  const src = report.tests.source;
  return {
    f2p: { ...f2p, failing: f2p.total - f2p.passed },
    p2p: { ...p2p, failing: p2p.total - p2p.passed },
    listsSource:
      src.failToPass === 'suite' && src.passToPass === 'suite'
        ? 'F2P/P2P lists from the suite'
        : 'F2P/P2P classified by the all-base run (failing on base → F2P, passing → P2P)',
    ignored: report.tests.ignored.length,
    seenOnlyWithPr: report.tests.seenOnlyWithPr,
  };
}

/** The matrix rows, how many ran, and of those how many as expected or in error; a shard's share. */
export function matrixView(
  report: Report,
  repos: string[],
): Pick<ReportView, 'matrix' | 'ran' | 'asExpected' | 'errored' | 'matrixMore' | 'partial'> {
  const matrix = matrixRows(report, repos);
  const ran = matrix.filter((r) => r.outcome !== 'not-run');
  return {
    matrix,
    ran: ran.length,
    asExpected: ran.filter((r) => r.asExpected).length,
    errored: ran.filter((r) => r.outcome === 'error').length,
    matrixMore: 0,
    ...(report.partial
      ? { partial: { shard: report.partial.shard, ran: ran.length, planned: report.matrix.planned.length } }
      : {}),
  };
}

function infraErrorsView(report: Report): ReportView['infraErrors'] {
  return report.infraErrors.map((e) => ({
    kind: e.kind,
    ...(e.target ? { target: e.target } : {}),
    ...(e.configuration ? { configuration: e.configuration } : {}),
    message: e.message,
    files: e.files ?? [],
  }));
}

/** One target's row: how its change was applied, its base and head (the PR's head when known). */
export function targetView(
  t: Report['targets'][number],
  options: ViewOptions,
): ReportView['targets'][number] {
  const headCommit = headCommitOf(t, options.prHeads);
  return {
    repo: t.repo,
    kind: t.head?.kind ?? (t.error?.kind === 'merge-conflict' ? 'does not merge' : 'unknown'),
    ...(t.base.ref && !isFullSha(t.base.ref) ? { baseRef: t.base.ref } : {}),
    baseSha: shortSha(t.base.sha),
    baseCommit: t.base.sha,
    ...(t.head?.ref && !isFullSha(t.head.ref) ? { headRef: t.head.ref } : {}),
    ...(headCommit ? { headSha: shortSha(headCommit), headCommit } : {}),
    ...(t.head?.patch ? { patch: `${t.head.patch.file} (${t.head.patch.method})` } : {}),
    ...(t.error ? { error: `${t.error.kind}: ${t.error.message}` } : {}),
  };
}

/** Repositories whose PR does not merge onto its base, once each. */
function conflictsOf(report: Report): string[] {
  return [
    ...new Set([
      ...report.targets.flatMap((t) => (t.error?.kind === 'merge-conflict' ? [t.repo] : [])),
      ...report.infraErrors.flatMap((e) => (e.kind === 'merge-conflict' && e.target ? [e.target] : [])),
    ]),
  ];
}

/** A resolved change's targets it does not need, named as the face names them (the App: the PR). */
function notNeeded(report: Report, options: ViewOptions): string[] {
  if (report.outcome !== 'resolved') return [];
  const label = (repo: string) => options.changeLabels?.find((l) => sameRepo(l.repo, repo))?.label ?? repo;
  return report.verdict.unnecessary.map(label);
}

/** Targets whose repository counts no F2P and no P2P test: the suite judges them only through others. */
function untestedTargets(report: Report, repos: readonly string[]): string[] {
  const tested = (repo: string) => {
    const r = report.repositories.find((x) => sameRepo(x.repo, repo));
    return r !== undefined && r.f2p.total + r.p2p.total > 0;
  };
  return repos.filter((r) => !tested(r));
}
