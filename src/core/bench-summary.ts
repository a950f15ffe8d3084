/**
 * The run summary from the per-prediction results: SWE-bench's counts and id lists, and the
 * papers' metrics (WideSWE case and repository success, SWE-EVO fix rate, apply rate, breakdowns
 * by number of repositories and of languages, diagnosis counts). Every metric counts an error
 * instance as not resolved, as SWE-bench does. Pure: the same results in any
 * order give the same summary, so merged shards equal one unsharded run.
 */
import { BENCH_SCHEMA_VERSION, type InstanceReportEntry, type RunSummary } from './bench-report.schema.ts';
import { meanPassAtK, wilsonInterval } from './bench-statistics.ts';

export function summarizeRun(
  entries: InstanceReportEntry[],
  opts: { instanceIds: string[]; submittedIds: string[]; model: string; runId: string },
): RunSummary {
  const sorted = [...entries].sort((a, b) => a.tandem.instance_id.localeCompare(b.tandem.instance_id));
  const ids = (pred: (e: InstanceReportEntry) => boolean) =>
    sorted.filter(pred).map((e) => e.tandem.instance_id);
  // As in SWE-bench: an empty patch is not run, so it is neither completed nor an error.
  const completed = ids((e) => e.tandem.outcome === 'resolved' || e.tandem.outcome === 'unresolved');
  const resolved = ids((e) => e.tandem.outcome === 'resolved');
  const unresolved = ids((e) => e.tandem.outcome === 'unresolved');
  const empty = ids((e) => e.tandem.outcome === 'empty-patch');
  const errors = ids((e) => e.tandem.outcome === 'error');
  const done = new Set([...completed, ...empty]);
  const submitted = [...new Set(opts.submittedIds)].sort();
  // As in SWE-bench, an error is not resolved in every metric (its fix rate 0, its repositories
  // failed): leaving errors out would let a model that forces errors on its failures score
  // higher than an honest one. The error count sits beside the metrics.
  const scored = sorted;
  const repos = scored.flatMap((e) => e.tandem.repositories);
  const nonEmpty = scored.filter((e) => e.patch_exists);
  const diagnosis: Record<string, number> = {};
  for (const e of scored) {
    for (const l of e.tandem.diagnosis?.labels ?? []) diagnosis[l.kind] = (diagnosis[l.kind] ?? 0) + 1;
  }
  return {
    total_instances: opts.instanceIds.length,
    submitted_instances: submitted.length,
    completed_instances: completed.length,
    resolved_instances: resolved.length,
    unresolved_instances: unresolved.length,
    empty_patch_instances: empty.length,
    error_instances: errors.length,
    completed_ids: completed,
    incomplete_ids: submitted.filter((id) => !done.has(id)),
    empty_patch_ids: empty,
    submitted_ids: submitted,
    resolved_ids: resolved,
    unresolved_ids: unresolved,
    error_ids: errors,
    schema_version: BENCH_SCHEMA_VERSION,
    model_name_or_path: opts.model,
    run_id: opts.runId,
    metrics: {
      case_success: ratio(resolved.length, opts.instanceIds.length),
      repository_success: ratio(repos.filter((r) => r.success).length, repos.length),
      f2p_complete_repositories: ratio(repos.filter((r) => r.f2pComplete).length, repos.length),
      p2p_preserved_repositories: ratio(repos.filter((r) => r.p2pPreserved).length, repos.length),
      fix_rate: ratio(
        scored.reduce((s, e) => s + e.tandem.fix_rate, 0),
        scored.length,
      ),
      patch_apply_rate: ratio(nonEmpty.filter((e) => e.patch_successfully_applied).length, nonEmpty.length),
      by_repo_count: breakdown(scored, (e) => String(e.tandem.repo_count)),
      by_language_count: breakdown(scored, (e) =>
        e.tandem.languages ? String(new Set(e.tandem.languages).size) : 'unknown',
      ),
      diagnosis,
      case_success_ci95: wilsonInterval(resolved.length, opts.instanceIds.length),
      ...passAt(sorted, opts.instanceIds.length),
    },
  };
}

/**
 * pass@1 and pass@k with k the attempts per prediction, over every instance: one without a
 * prediction, an empty patch or an error has k attempts and none resolved.
 */
function passAt(entries: InstanceReportEntry[], total: number) {
  const k = Math.max(1, ...entries.map((e) => e.tandem.attempts_resolved?.length ?? 1));
  const per = entries.map((e) => {
    const tries = e.tandem.attempts_resolved ?? [e.resolved];
    return { n: k, c: tries.filter(Boolean).length };
  });
  for (let i = per.length; i < total; i++) per.push({ n: k, c: 0 });
  const scale = (x: number) => (total === 0 ? 0 : x);
  return { attempts: k, pass_at_1: scale(meanPassAtK(per, 1)), pass_at_k: scale(meanPassAtK(per, k)) };
}

function breakdown(entries: InstanceReportEntry[], key: (e: InstanceReportEntry) => string) {
  const out: Record<string, { total: number; resolved: number; rate: number }> = {};
  for (const e of entries) {
    const k = key(e);
    const b = out[k] ?? { total: 0, resolved: 0, rate: 0 };
    b.total++;
    if (e.resolved) b.resolved++;
    b.rate = ratio(b.resolved, b.total);
    out[k] = b;
  }
  return Object.fromEntries(
    Object.entries(out).sort(([a], [b]) => a.localeCompare(b, 'en', { numeric: true })),
  );
}

function ratio(n: number, d: number): number {
  return d === 0 ? 0 : Math.round((n / d) * 10_000) / 10_000;
}
