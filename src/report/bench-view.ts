/**
 * Benchmark runs → the view the HTML and Markdown reports lay out: a leaderboard (models × the
 * papers' metrics), resolved rate by number of repositories, an instances × models grid, and per
 * instance each model's matrix and diagnosis. Pure: every decision about what a reader sees is
 * made here.
 */
import type { InstanceReportEntry, RunSummary } from '../core/bench-report.schema.ts';

export interface BenchRunData {
  runId: string;
  summary: RunSummary;
  entries: InstanceReportEntry[];
}

export interface LeaderboardRow {
  model: string;
  runId: string;
  resolved: number;
  total: number;
  caseSuccess: number;
  /** Per-repository rates: '—' when no repository was graded. */
  repositorySuccess: number | string;
  f2pComplete: number | string;
  p2pPreserved: number | string;
  fixRate: number;
  applyRate: number;
  empty: number;
  errors: number;
  /** `--attempts` of the run; pass@1 / pass@k (k = attempts) and the Wilson 95% interval, in %. */
  attempts: number;
  passAt1: number;
  passAtK: number;
  ciLow: number;
  ciHigh: number;
}

export type CellKind = 'resolved' | 'unresolved' | 'empty-patch' | 'error' | 'missing';

export interface InstanceView {
  id: string;
  repoCount: number;
  /** `1 repository`, `3 repositories`. */
  repoLabel: string;
  cells: Array<{ model: string; kind: CellKind; fixRate: number }>;
  details: Array<{
    model: string;
    kind: CellKind;
    matrix: Array<{ id: string; applied: string; outcome: string; passed: number; total: number }>;
    diagnosis: string[];
    notApplied: string[];
    /** Listed test names the runs never reported (a name-mapping problem), '' when none. */
    namesWarning: string;
  }>;
}

export interface BenchView {
  models: string[];
  leaderboard: LeaderboardRow[];
  /**
   * The pass@k column's header when a run made several attempts (`pass@3 %`, or `pass@k %` when
   * runs differ in k), '' when every run made one: then the columns are left out.
   */
  passAtKHeader: string;
  /** Every prediction whose listed test names the runs never reported, with the warning. */
  namesWarnings: Array<{ model: string; id: string; warning: string }>;
  byRepoCount: Array<{
    repos: string;
    rates: Array<{ model: string; rate: number; shown: string; resolved: number; total: number }>;
  }>;
  instances: InstanceView[];
  diagnosisKinds: string[];
  diagnosis: Array<{ model: string; counts: number[] }>;
}

const pct = (x: number) => Math.round(x * 1000) / 10;
/** A rate with nothing to count: shown as a dash, never as 0%. */
const NO_DATA = '—';

/**
 * Of a configuration's repositories at head, the ones the prediction changed: a repository its
 * patch leaves empty is at head only as the test base, so "applied" would overstate it.
 */
function changedOf(
  applied: readonly string[],
  apply: ReadonlyArray<{ repo: string; changed: boolean }>,
): string[] {
  const unchanged = new Set(apply.filter((a) => !a.changed).map((a) => a.repo));
  return applied.filter((repo) => !unchanged.has(repo));
}

/** How a run is named: its model, with the run id when several runs share the model. */
export function runLabeler(runs: readonly BenchRunData[]): (r: BenchRunData) => string {
  return (r) =>
    runs.filter((o) => o.summary.model_name_or_path === r.summary.model_name_or_path).length > 1
      ? `${r.summary.model_name_or_path} (${r.runId})`
      : r.summary.model_name_or_path;
}

type Label = (r: BenchRunData) => string;

export function benchView(runs: BenchRunData[]): BenchView {
  const label = runLabeler(runs);
  const ranked = [...runs].sort(
    (a, b) =>
      b.summary.resolved_instances - a.summary.resolved_instances ||
      b.summary.metrics.fix_rate - a.summary.metrics.fix_rate ||
      label(a).localeCompare(label(b)),
  );
  const leaderboard = ranked.map((r) => leaderboardRow(r, label(r)));
  const ks = [...new Set(leaderboard.map((r) => r.attempts))];
  const passAtKHeader = ks.every((k) => k <= 1) ? '' : ks.length === 1 ? `pass@${ks[0]} %` : 'pass@k %';
  const ids = [...new Set(ranked.flatMap((r) => r.entries.map((e) => e.tandem.instance_id)))].sort();
  const diagnosisKinds = [...new Set(ranked.flatMap((r) => Object.keys(r.summary.metrics.diagnosis)))].sort();
  return {
    models: ranked.map(label),
    leaderboard,
    passAtKHeader,
    namesWarnings: namesWarningsOf(ranked, label),
    byRepoCount: byRepoCountView(ranked, label),
    instances: ids.map((id) => instanceView(id, ranked, label)),
    diagnosisKinds,
    diagnosis: ranked.map((r) => ({
      model: label(r),
      counts: diagnosisKinds.map((k) => r.summary.metrics.diagnosis[k] ?? 0),
    })),
  };
}

/** One run's leaderboard row, rates in percent. */
export function leaderboardRow(r: BenchRunData, model: string): BenchView['leaderboard'][number] {
  const m = r.summary.metrics;
  // No graded repository (every prediction errored or was empty): a per-repository rate is
  // not 0%, it is unknown.
  const perRepo = (x: number) => (r.entries.some((e) => e.tandem.repositories.length > 0) ? pct(x) : NO_DATA);
  return {
    model,
    runId: r.runId,
    resolved: r.summary.resolved_instances,
    total: r.summary.total_instances,
    caseSuccess: pct(m.case_success),
    repositorySuccess: perRepo(m.repository_success),
    f2pComplete: perRepo(m.f2p_complete_repositories),
    p2pPreserved: perRepo(m.p2p_preserved_repositories),
    fixRate: pct(m.fix_rate),
    applyRate: pct(m.patch_apply_rate),
    empty: r.summary.empty_patch_instances,
    errors: r.summary.error_instances,
    attempts: m.attempts,
    passAt1: pct(m.pass_at_1),
    passAtK: pct(m.pass_at_k),
    ciLow: pct(m.case_success_ci95.low),
    ciHigh: pct(m.case_success_ci95.high),
  };
}

/** Resolved rate by number of repositories, per run; a size a run has no instance of shows a dash. */
export function byRepoCountView(ranked: readonly BenchRunData[], label: Label): BenchView['byRepoCount'] {
  const counts = [...new Set(ranked.flatMap((r) => Object.keys(r.summary.metrics.by_repo_count)))].sort(
    (a, b) => Number(a) - Number(b),
  );
  return counts.map((repos) => ({
    repos,
    rates: ranked.map((r) => {
      const b = r.summary.metrics.by_repo_count[repos];
      const total = b?.total ?? 0;
      const rate = total > 0 ? pct(b!.rate) : 0;
      // A model with no instance of this size has no rate; the bar chart draws nothing for it.
      return {
        model: label(r),
        rate,
        shown: total > 0 ? `${rate}%` : NO_DATA,
        resolved: b?.resolved ?? 0,
        total,
      };
    }),
  }));
}

/** One instance across the runs: a heatmap cell per run, and each run's matrix and diagnosis. */
export function instanceView(id: string, ranked: readonly BenchRunData[], label: Label): InstanceView {
  const found = ranked.map((r) => ({
    model: label(r),
    e: r.entries.find((x) => x.tandem.instance_id === id),
  }));
  const repoCount = found.find((f) => f.e)?.e?.tandem.repo_count ?? 0;
  return {
    id,
    repoCount,
    repoLabel: `${repoCount} ${repoCount === 1 ? 'repository' : 'repositories'}`,
    cells: found.map(({ model, e }) => ({
      model,
      kind: e ? e.tandem.outcome : 'missing',
      fixRate: e ? pct(e.tandem.fix_rate) : 0,
    })),
    details: found.flatMap(({ model, e }) =>
      e
        ? [
            {
              model,
              kind: e.tandem.outcome,
              matrix: (e.tandem.report?.configurations ?? []).map((c) => ({
                id: c.id,
                applied: changedOf(c.applied, e.tandem.apply).join(', ') || '—',
                outcome: c.outcome,
                passed: c.passed,
                total: c.total,
              })),
              diagnosis: (e.tandem.diagnosis?.labels ?? []).map((l) => diagnosisText(l.kind, l.repo)),
              notApplied: e.tandem.apply.filter((a) => !a.applied).map((a) => a.repo),
              namesWarning: e.tandem.names_warning ?? '',
            },
          ]
        : [],
    ),
  };
}

/** Predictions whose listed test names the runs never reported, per run, by instance id. */
function namesWarningsOf(ranked: readonly BenchRunData[], label: Label): BenchView['namesWarnings'] {
  return ranked.flatMap((r) =>
    r.entries
      .filter((e) => e.tandem.names_warning)
      .map((e) => ({ model: label(r), id: e.tandem.instance_id, warning: e.tandem.names_warning! }))
      .sort((a, b) => a.id.localeCompare(b.id)),
  );
}

export function diagnosisText(kind: string, repo?: string): string {
  switch (kind) {
    case 'missed-repository':
      return `missed repository ${repo ?? ''}`.trim();
    case 'wrong-in-repo':
      return `wrong in ${repo ?? '?'}`;
    case 'cross-repo-inconsistency':
      return 'cross-repository inconsistency';
    default:
      return kind;
  }
}
