/**
 * One prediction of a `tandem bench run`, from patches to its written `report.json` entry:
 * evaluated (unless its patch is empty), diagnosed when asked and unresolved, stored. And the pool
 * that runs the pending predictions, more of them in flight than engine slots so states are made
 * while others' tests run.
 */
import pLimit from 'p-limit';
import type { Diagnosis, RepoApply } from '../core/bench-report.schema.ts';
import { InfraError } from '../core/errors.ts';
import type { BenchWork } from './bench-work.ts';
import { diagnose } from './diagnose.ts';
import {
  type BenchMatrix,
  type CandidateContext,
  type CandidateResult,
  evaluateCandidate,
} from './evaluate-candidate.ts';
import { instanceEntry } from './instance-result.ts';
import type { LoadedInstance } from './instances-file.ts';
import type { RunStore } from './run-store.ts';

/** What every prediction of a run shares. */
export interface PredictionRun {
  ctx: CandidateContext;
  store: RunStore;
  matrix: BenchMatrix;
  attempts: number;
  diagnose: boolean;
  signal?: AbortSignal;
  /** Told the outcome of each prediction once its entry is written. */
  onDone?: (done: { instanceId: string; model: string; outcome: string }) => void;
}

/** The repositories the suite's test groups name: those grading gives per-repository metrics. */
export function testedRepos(loaded: LoadedInstance): string[] {
  return [...new Set(loaded.suite.tests.flatMap((g) => (g.repo ? [g.repo] : [])))];
}

/** A patch that does not apply is wrong in its repository without running anything. Pure. */
export function notAppliedDiagnosis(apply: readonly RepoApply[]): Diagnosis {
  const failed = apply.filter((a) => !a.applied);
  return {
    labels: failed.map((a) => ({ kind: 'wrong-in-repo' as const, repo: a.repo })),
    swaps: failed.map((a) => ({ repo: a.repo, outcome: 'not-applied' as const })),
  };
}

/** The diagnosis `--diagnose` asks for: only of a prediction that ran unresolved or did not apply. */
async function diagnosisOf(
  w: BenchWork,
  result: CandidateResult | undefined,
  run: PredictionRun,
): Promise<Diagnosis | undefined> {
  if (!run.diagnose) return undefined;
  if (result?.kind === 'ran' && !result.report.resolved)
    return diagnose(w.loaded, w.patches.patches, result.report, run.ctx);
  if (result?.kind === 'not-applied') return notAppliedDiagnosis(result.apply);
  return undefined;
}

/**
 * Evaluates one prediction and writes its entry; returns the entry's names warning, if any.
 * Nothing is written once the run is interrupted: the prediction stays pending for a rerun.
 */
export async function evaluatePrediction(w: BenchWork, run: PredictionRun): Promise<string | undefined> {
  if (run.signal?.aborted) return undefined;
  const started = Date.now();
  const model = w.prediction.model_name_or_path;
  const result = w.patches.patchExists
    ? await evaluateCandidate(w.loaded, w.patches.patches, run.matrix, run.ctx, { attempts: run.attempts })
    : undefined;
  const diagnosis = await diagnosisOf(w, result, run);
  if (run.signal?.aborted) return undefined;
  const entry = instanceEntry({
    instance: w.loaded.instance,
    model,
    patches: w.patches,
    ...(result ? { result } : {}),
    ...(diagnosis ? { diagnosis } : {}),
    durationMs: Date.now() - started,
    testedRepos: testedRepos(w.loaded),
  });
  await run.store.write(
    entry,
    w.patches.patches,
    result?.kind === 'ran' ? result.outputs : [],
    result?.kind === 'ran' ? result.rawRuns : undefined,
  );
  run.onDone?.({ instanceId: w.prediction.instance_id, model, outcome: entry.tandem.outcome });
  return entry.tandem.names_warning
    ? `${model} ${w.prediction.instance_id}: ${entry.tandem.names_warning}`
    : undefined;
}

/**
 * Evaluates the pending predictions, `inFlight` at a time; returns their names warnings. Every
 * evaluation settles (and so cleans up) before this returns or throws; an interrupted run throws.
 */
export async function evaluatePending(
  todo: readonly BenchWork[],
  run: PredictionRun,
  inFlight: number,
): Promise<string[]> {
  const limit = pLimit(inFlight);
  const settled = await Promise.allSettled(todo.map((w) => limit(() => evaluatePrediction(w, run))));
  const failed = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
  if (failed) throw failed.reason;
  if (run.signal?.aborted)
    throw new InfraError('aborted', 'the benchmark run was interrupted; rerun to resume');
  return settled.flatMap((s) => (s.status === 'fulfilled' && s.value ? [s.value] : []));
}
