/**
 * The verdict's headline and what stands around it: joint necessity and the fix rate, the
 * members a resolved change does not need (line 2 of the comment), merge conflicts,
 * infrastructure errors, targets the suite has no test for, and the per-repository rows.
 */
import { sameRepo } from '../core/repo-name.ts';
import type { Report } from '../core/report.schema.ts';
import type { ReportView, ViewOptions } from './report-view-model.ts';

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

export function infraErrorsView(report: Report): ReportView['infraErrors'] {
  return report.infraErrors.map((e) => ({
    kind: e.kind,
    ...(e.target ? { target: e.target } : {}),
    ...(e.configuration ? { configuration: e.configuration } : {}),
    message: e.message,
    files: e.files ?? [],
  }));
}

/** Repositories whose PR does not merge onto its base, once each. */
export function conflictsOf(report: Report): string[] {
  return [
    ...new Set([
      ...report.targets.flatMap((t) => (t.error?.kind === 'merge-conflict' ? [t.repo] : [])),
      ...report.infraErrors.flatMap((e) => (e.kind === 'merge-conflict' && e.target ? [e.target] : [])),
    ]),
  ];
}

/** A resolved change's targets it does not need, named as the face names them (the App: the PR). */
export function notNeeded(report: Report, options: ViewOptions): string[] {
  if (report.outcome !== 'resolved') return [];
  const label = (repo: string) => options.changeLabels?.find((l) => sameRepo(l.repo, repo))?.label ?? repo;
  return report.verdict.unnecessary.map(label);
}

/** Targets whose repository counts no F2P and no P2P test: the suite judges them only through others. */
export function untestedTargets(report: Report, repos: readonly string[]): string[] {
  const tested = (repo: string) => {
    const r = report.repositories.find((x) => sameRepo(x.repo, repo));
    return r !== undefined && r.f2p.total + r.p2p.total > 0;
  };
  return repos.filter((r) => !tested(r));
}

/** Past this many repositories, the ones that succeed share one row: the table shows what fails. */
export const REPO_ROWS_LISTED = 4;

export function repoRows(repos: Report['repositories']): ReportView['repoRows'] {
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
