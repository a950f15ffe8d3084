/**
 * Classifies an unresolved prediction by execution (CrossSWE and WideSWE classify by hand or by an
 * LLM judge): for each repository, the swap configuration — the prediction there, gold in the
 * others — is run on its full configuration.
 *   missed repository: a repository the gold changes that the prediction leaves unchanged;
 *   wrong in <repo>: that repository's swap fails;
 *   cross-repository inconsistency: every swap passes yet the joint prediction fails — each side
 *     is right against the reference, but they disagree with each other;
 *   regression: a PASS_TO_PASS test fails in the prediction's full configuration.
 */
import type { Diagnosis } from '../core/bench-report.schema.ts';
import type { Report } from '../core/report.schema.ts';
import { type CandidateContext, evaluateCandidate } from './evaluate-candidate.ts';
import type { LoadedInstance } from './instances-file.ts';
import { goldPatches } from './prediction-patches.ts';

export async function diagnose(
  loaded: LoadedInstance,
  predicted: Record<string, string>,
  report: Report,
  ctx: CandidateContext,
): Promise<Diagnosis> {
  const gold = goldPatches(loaded.instance);
  const labels: Diagnosis['labels'] = [];
  const full = report.configurations.find((c) => c.role === 'full');
  if (full?.tests.some((t) => t.kind === 'P2P' && t.status !== 'passed')) labels.push({ kind: 'regression' });
  const missed = loaded.instance.repos
    .filter((r) => r.patch.trim() !== '' && !(predicted[r.repo] ?? '').trim())
    .map((r) => r.repo);
  for (const repo of missed) labels.push({ kind: 'missed-repository', repo });

  const swaps: Diagnosis['swaps'] = [];
  for (const r of loaded.instance.repos) {
    if (missed.includes(r.repo)) continue;
    const result = await evaluateCandidate(
      loaded,
      { ...gold, [r.repo]: predicted[r.repo] ?? '' },
      'none',
      ctx,
    );
    const outcome =
      result.kind === 'ran'
        ? result.report.resolved
          ? 'pass'
          : 'fail'
        : result.kind === 'not-applied'
          ? 'not-applied'
          : result.kind === 'injection-failed'
            ? 'fail'
            : 'error';
    swaps.push({ repo: r.repo, outcome });
    if (outcome === 'fail' || outcome === 'not-applied') labels.push({ kind: 'wrong-in-repo', repo: r.repo });
  }
  const allSwapsPass = swaps.length > 0 && swaps.every((s) => s.outcome === 'pass');
  if (allSwapsPass && missed.length === 0 && !report.resolved && loaded.instance.repos.length > 1) {
    labels.push({ kind: 'cross-repo-inconsistency' });
  }
  return { labels, swaps };
}
