/**
 * The configuration matrix as readers see it: rows planned and run, in merge order, one column
 * (or one letter) per target in display order, and how many ran as a jointly necessary change
 * expects.
 */
import { workspaceName } from '../core/case.schema.ts';
import type { GradedConfiguration } from '../core/grade.schema.ts';
import { planMatrix } from '../core/matrix-plan.ts';
import { sameRepo } from '../core/repo-name.ts';
import type { Report } from '../core/report.schema.ts';
import { brokenLabel } from '../core/unrunnable-tests.ts';
import type { MatrixRowView, ReportView } from './report-view-model.ts';

/** Matrix rows listed one by one at most; the rest are a summary line (256 rows for 8 PRs). */
export const MATRIX_LISTED = 16;
const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
export const letterOf = (i: number): string => LETTERS[i] ?? String(i + 1);

function lettersOf(applied: boolean[]): string {
  return applied.map((a, i) => (a ? letterOf(i) : '·')).join('');
}

/** Repository names in display order: those `order` names first, in its order, then the rest. */
export function displayOrder(repos: string[], order: readonly string[] | undefined): string[] {
  if (!order || order.length === 0) return repos;
  const rank = (r: string) => {
    const i = order.findIndex((o) => sameRepo(o, r));
    return i < 0 ? order.length : i;
  };
  return [...repos].sort((a, b) => rank(a) - rank(b));
}

/** Column headers: the short name, unless two targets share it. */
export function columnsOf(repos: string[]): ReportView['columns'] {
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
