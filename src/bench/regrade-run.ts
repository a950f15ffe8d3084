/**
 * `tandem bench regrade <run>`: the stored test results of a run graded again — new lists or a
 * new name mapping from the instances file (and suite map) given now — without containers. The
 * new reports and summaries go to a new run folder beside the old one (same run id); patches,
 * outputs and raw runs are copied, so the regraded run can itself be compared or regraded.
 * Predictions that never ran (empty, not applying, errors) keep their outcome, and a diagnosis
 * (from swap runs not stored) is kept while the prediction stays unresolved.
 */
import { cp } from 'node:fs/promises';
import path from 'node:path';
import type { InstanceReportEntry, RunSummary } from '../core/bench-report.schema.ts';
import { summarizeRun } from '../core/bench-summary.ts';
import { InputError } from '../core/errors.ts';
import { gradeCandidate, instanceLists } from './grade-candidate.ts';
import { instanceEntry } from './instance-result.ts';
import { loadInstances } from './instances-file.ts';
import { RunStore, writeJsonAtomic } from './run-store.ts';

export interface RegradeOptions {
  run: string;
  instances: string;
  suites?: string;
  /** Multi-SWE-bench rows: count `n2p_tests` as FAIL_TO_PASS. */
  n2pAsF2p?: boolean;
  /** The new run folder (default `<run>.regraded` beside it). */
  out?: string;
}

export interface RegradeResult {
  out: string;
  summaries: Array<{ file: string; summary: RunSummary }>;
  /** Predictions whose outcome changed: `model instance: before → after`. */
  changed: string[];
  warnings: string[];
}

export async function regradeRun(opts: RegradeOptions): Promise<RegradeResult> {
  const { store, summaries } = await RunStore.open(opts.run);
  const out = path.resolve(opts.out ?? `${store.dir.replace(/[/\\]+$/, '')}.regraded`);
  if (out === store.dir)
    throw new InputError('bench regrade: --out must differ from the run folder', opts.out);
  const target = new RunStore(out, store.runId);
  const loaded = await loadInstances(opts.instances, {
    ...(opts.suites ? { suites: opts.suites } : {}),
    ...(opts.n2pAsF2p ? { n2pAsF2p: true } : {}),
  });
  const byId = new Map(loaded.map((l) => [l.instance.instance_id, l]));
  const instanceIds = loaded.map((l) => l.instance.instance_id);
  const changed: string[] = [];
  const warnings: string[] = [];
  const result: RegradeResult['summaries'] = [];
  for (const summary of summaries) {
    const model = summary.model_name_or_path;
    const entries: InstanceReportEntry[] = [];
    for (const old of await store.entries(model)) {
      const id = old.tandem.instance_id;
      const l = byId.get(id);
      if (!l)
        throw new InputError(
          `${opts.instances}: no instance "${id}" (the run ${opts.run} has a report for it)`,
        );
      const from = store.instanceDir(model, id);
      const to = target.instanceDir(model, id);
      await cp(from, to, { recursive: true, force: true });
      const runs = await store.runs(model, id);
      let entry = old;
      if (
        runs &&
        old.tandem.report &&
        (old.tandem.outcome === 'resolved' || old.tandem.outcome === 'unresolved')
      ) {
        const { report, ...grade } = gradeCandidate({
          report: old.tandem.report,
          runs,
          suite: l.suite,
          lists: instanceLists(l),
          attempts: old.tandem.attempts_resolved?.length ?? 1,
        });
        entry = instanceEntry({
          instance: l.instance,
          model,
          patches: { patchIsNone: old.patch_is_None, patchExists: old.patch_exists, patches: {} },
          result: {
            kind: 'ran',
            apply: old.tandem.apply,
            report,
            runs: [],
            rawRuns: runs,
            outputs: [],
            attempts: old.tandem.attempts,
            grade,
          },
          durationMs: old.tandem.duration_ms,
          // The diagnosis came from swap configurations the stored runs hold no trace of: kept
          // while the prediction stays unresolved (a resolved one has nothing to diagnose).
          ...(old.tandem.diagnosis && !report.resolved ? { diagnosis: old.tandem.diagnosis } : {}),
          testedRepos: [...new Set(l.suite.tests.flatMap((g) => (g.repo ? [g.repo] : [])))],
        });
        if (grade.namesWarning) warnings.push(`${model} ${id}: ${grade.namesWarning}`);
      }
      if (entry.tandem.outcome !== old.tandem.outcome)
        changed.push(`${model} ${id}: ${old.tandem.outcome} → ${entry.tandem.outcome}`);
      await writeJsonAtomic(path.join(to, 'report.json'), { [id]: entry });
      entries.push(entry);
    }
    const regraded = summarizeRun(entries, {
      instanceIds,
      submittedIds: summary.submitted_ids,
      model,
      runId: store.runId,
    });
    result.push({ file: await target.writeSummary(regraded), summary: regraded });
  }
  return { out, summaries: result, changed, warnings };
}
