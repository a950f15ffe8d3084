/**
 * The targets as readers see them: how each change was applied, its base and head, and the
 * commits quoted: the PR's own head when the face knows it, never Tandem's merge of it.
 */
import { sameRepo } from '../core/repo-name.ts';
import type { Report } from '../core/report.schema.ts';
import { isFullSha, type ReportView, shortSha, type ViewOptions } from './report-view-model.ts';

/** The commit a reader can find for a target's head: the PR's own (a SHA ref), never a merge of it. */
export function headCommitOf(
  t: Report['targets'][number],
  prHeads: ViewOptions['prHeads'],
): string | undefined {
  const known = prHeads?.find((h) => sameRepo(h.repo, t.repo))?.sha;
  if (known) return known;
  if (isFullSha(t.head?.ref)) return t.head?.ref;
  return t.head?.sha;
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
