/**
 * Report → view model: every decision about what a reader sees (labels, icons, counts, what
 * `reveal: 'counts'` hides) is made here, so templates only lay out and escape. The view holds
 * raw strings; the Markdown renderer escapes them, the terminal table prints them.
 */
import { workspaceName } from '../core/case.schema.ts';
import type { GradedConfiguration } from '../core/grade.schema.ts';
import { planMatrix } from '../core/matrix-plan.ts';
import type { Report } from '../core/report.schema.ts';
import { groupOfTestId } from '../core/test-id.ts';

/** `names`: failing and flaky test names are shown. `counts`: only numbers (public PRs, hidden tests). */
export type Reveal = 'names' | 'counts';

export interface MatrixRowView {
  id: string;
  role: 'base' | 'partial' | 'full';
  /** One per target column: true when that target's PR is applied (head). */
  applied: boolean[];
  outcome: 'pass' | 'fail' | 'error' | 'not-run';
  /** full is expected to pass, every other configuration to fail (a jointly necessary change). */
  asExpected: boolean;
  passed: number;
  total: number;
  durationMs: number;
  cached: boolean;
  runs: number;
  errorKind?: string;
}

export interface FailingTestView {
  /** The id without its group prefix. */
  name: string;
  kind: 'F2P' | 'P2P';
  status: string;
}

export interface ReportView {
  name: string;
  outcome: Report['outcome'];
  summary: string;
  /** The full configuration has a result: fix rate and per-repository metrics mean something. */
  judged: boolean;
  /** report.summary says more than "complete". */
  hasSummary: boolean;
  jointlyNecessary: 'yes' | 'no' | 'undetermined';
  leaveOneOut: boolean;
  unnecessary: string[];
  fixRate: number;
  fixRatePercent: string;
  f2p: { passed: number; total: number; failing: number };
  p2p: { passed: number; total: number; failing: number };
  listsSource: string;
  ignored: number;
  columns: Array<{ repo: string; short: string }>;
  matrix: MatrixRowView[];
  ran: number;
  asExpected: number;
  /** Rows dropped by trimming. */
  matrixMore: number;
  repositories: Report['repositories'];
  reveal: Reveal;
  /** Failing expected tests in full, grouped by test group; empty under `counts` or after trimming. */
  failingGroups: Array<{ name: string; tests: FailingTestView[] }>;
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
}

export const shortSha = (sha: string | undefined): string => (sha ? sha.slice(0, 7) : '');

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

function matrixRows(report: Report, repos: string[]): MatrixRowView[] {
  const byId = new Map(report.configurations.map((c) => [c.id, c]));
  let planned: Array<{ id: string; applied: string[]; role: MatrixRowView['role'] }> = [];
  try {
    const plan = planMatrix(repos, report.matrix.mode);
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
  return rows;
}

function row(c: GradedConfiguration, repos: string[]): MatrixRowView {
  const expected = c.role === 'full' ? 'pass' : 'fail';
  return {
    id: c.id,
    role: c.role,
    applied: repos.map((r) => c.applied.includes(r)),
    outcome: c.outcome,
    asExpected: c.outcome === expected,
    passed: c.passed,
    total: c.total,
    durationMs: c.durationMs,
    cached: c.cached,
    runs: c.runs,
    ...(c.error ? { errorKind: c.error.kind } : {}),
  };
}

function notRun(
  p: { id: string; applied: string[]; role: MatrixRowView['role'] },
  repos: string[],
): MatrixRowView {
  return {
    id: p.id,
    role: p.role,
    applied: repos.map((r) => p.applied.includes(r)),
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

function failing(
  full: GradedConfiguration | undefined,
): Pick<ReportView, 'failingGroups' | 'failingCount' | 'failingMore'> {
  const bad = (full?.tests ?? []).filter((t) => t.status !== 'passed');
  // F2P first: they say what is missing; P2P regressions follow.
  const listed = [...bad].sort((a, b) => (a.kind === b.kind ? 0 : a.kind === 'F2P' ? -1 : 1));
  const groups = new Map<string, FailingTestView[]>();
  for (const t of listed.slice(0, MAX_FAILING_LISTED)) {
    const group = groupOfTestId(t.id);
    const name = t.id.length > group.length ? t.id.slice(group.length + 2) : t.id;
    groups.set(group, [...(groups.get(group) ?? []), { name, kind: t.kind, status: t.status }]);
  }
  return {
    failingGroups: [...groups].map(([name, tests]) => ({ name, tests })),
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
  };
  return (full?.groups ?? [])
    .filter((g) => g.status !== 'reported')
    .map((g) => ({
      name: g.name,
      status: g.status,
      detail: `${describe[g.status] ?? g.status}${g.exitCode !== null ? ` (exit ${g.exitCode})` : ''}`,
    }));
}

export function buildReportView(report: Report, options: { reveal: Reveal }): ReportView {
  const repos = report.targets.map((t) => t.repo);
  const full = report.configurations.find((c) => c.role === 'full');
  const matrix = matrixRows(report, repos);
  const ran = matrix.filter((r) => r.outcome !== 'not-run');
  const names = options.reveal === 'names';
  const f = failing(full);
  const jn = report.verdict.jointlyNecessary;
  const f2p = full?.f2p ?? { passed: 0, total: report.tests.failToPass.length };
  const p2p = full?.p2p ?? { passed: 0, total: report.tests.passToPass.length };
  const src = report.tests.source;
  return {
    name: report.name,
    outcome: report.outcome,
    summary: report.summary,
    judged: report.outcome !== 'error',
    hasSummary: report.summary !== 'complete',
    jointlyNecessary: jn === null ? 'undetermined' : jn ? 'yes' : 'no',
    leaveOneOut: report.verdict.jointlyNecessaryBasis === 'leave-one-out',
    unnecessary: report.verdict.unnecessary,
    fixRate: report.verdict.fixRate,
    fixRatePercent: `${Math.round(report.verdict.fixRate * 1000) / 10}%`,
    f2p: { ...f2p, failing: f2p.total - f2p.passed },
    p2p: { ...p2p, failing: p2p.total - p2p.passed },
    listsSource:
      src.failToPass === 'suite' && src.passToPass === 'suite'
        ? 'F2P/P2P lists from the suite'
        : 'F2P/P2P classified by the all-base run (failing on base → F2P, passing → P2P)',
    ignored: report.tests.ignored.length,
    columns: columnsOf(repos),
    matrix,
    ran: ran.length,
    asExpected: ran.filter((r) => r.asExpected).length,
    matrixMore: 0,
    repositories: report.outcome === 'error' ? [] : report.repositories,
    reveal: options.reveal,
    failingGroups: names ? f.failingGroups : [],
    failingCount: f.failingCount,
    failingMore: names ? f.failingMore : 0,
    brokenGroups: names ? brokenGroups(full) : [],
    flaky: names ? report.flaky : [],
    flakyCount: report.flaky.length,
    fullRuns: full?.runs ?? 0,
    infraErrors: report.infraErrors.map((e) => ({
      kind: e.kind,
      ...(e.target ? { target: e.target } : {}),
      ...(e.configuration ? { configuration: e.configuration } : {}),
      message: e.message,
      files: e.files ?? [],
    })),
    infraMore: 0,
    targets: report.targets.map((t) => ({
      repo: t.repo,
      kind: t.head?.kind ?? 'unknown',
      ...(t.base.ref ? { baseRef: t.base.ref } : {}),
      baseSha: shortSha(t.base.sha),
      ...(t.head?.ref ? { headRef: t.head.ref } : {}),
      ...(t.head ? { headSha: shortSha(t.head.sha) } : {}),
      ...(t.head?.patch ? { patch: `${t.head.patch.file} (${t.head.patch.method})` } : {}),
      ...(t.error ? { error: `${t.error.kind}: ${t.error.message}` } : {}),
    })),
    context: report.context.map((c) => ({ repo: c.repo, ref: c.ref, sha: shortSha(c.sha) })),
    ...(report.partial
      ? { partial: { shard: report.partial.shard, ran: ran.length, planned: report.matrix.planned.length } }
      : {}),
    tool: `${report.tool.name} ${report.tool.version}`,
    suite: report.suite.name,
    sandbox: report.sandbox,
    durationMs: report.durationMs,
    matrixMode: report.matrix.mode,
    trimmed: [],
  };
}
