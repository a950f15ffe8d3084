/**
 * `tandem bench run`: every prediction (of this shard) evaluated, its report written as soon as
 * it finishes, finished ones skipped on a rerun (errored ones retried unless `retryErrors` is
 * off), then the run summary per model. Configurations
 * of all predictions share one set of `jobs` slots; states are made once per run (and cached
 * across runs) whatever the number of predictions that need them.
 */
import pLimit from 'p-limit';
import { type BenchPrediction, modelFolder, modelFolderClash } from '../core/bench-prediction.schema.ts';
import type { RunSummary } from '../core/bench-report.schema.ts';
import { summarizeRun } from '../core/bench-summary.ts';
import { InfraError, InputError } from '../core/errors.ts';
import type { Shard } from '../core/shard-plan.ts';
import type { EvaluationOptions } from '../engine/evaluate-api.ts';
import { MirrorCache } from '../engine/git/git-mirror.ts';
import { BenchStates } from './bench-states.ts';
import { diagnose } from './diagnose.ts';
import { type BenchMatrix, evaluateCandidate } from './evaluate-candidate.ts';
import { instanceEntry } from './instance-result.ts';
import { type LoadedInstance, loadInstances } from './instances-file.ts';
import { type PredictionPatches, predictionPatches } from './prediction-patches.ts';
import { loadPredictions } from './predictions-file.ts';
import { RunStore } from './run-store.ts';

export interface BenchRunOptions {
  instances: string;
  predictions: string;
  runId: string;
  runsDir: string;
  jobs: number;
  matrix: BenchMatrix;
  diagnose: boolean;
  shard?: Shard;
  /** Extra attempts after an infrastructure error. */
  retries: number;
  /** On a rerun, evaluate again the predictions that ended in an error (default true). */
  retryErrors?: boolean;
  /** Runs of each prediction (`--attempts K`), for pass@1 / pass@k. */
  attempts?: number;
  /** Maps rows to suites by repository (and version): see suite-map.ts. */
  suites?: string;
  /** Multi-SWE-bench rows: count `n2p_tests` as FAIL_TO_PASS. */
  n2pAsF2p?: boolean;
  engine: Omit<EvaluationOptions, 'matrix' | 'only' | 'jobs' | 'slots' | 'reruns'>;
  onEvent?: (e: BenchRunEvent) => void;
}

export type BenchRunEvent =
  | { type: 'start'; total: number; skipped: number; retried: number }
  | { type: 'done'; instanceId: string; model: string; outcome: string };

export interface BenchRunResult {
  summaries: Array<{ file: string; summary: RunSummary }>;
  /** Predictions this invocation evaluated (not skipped). */
  evaluated: number;
  /** Per model, the instances the predictions file has no prediction for. */
  missing: Array<{ model: string; ids: string[] }>;
  /** Listed test names no run reported (`model instance: …`), for the user to fix the mapping. */
  warnings: string[];
}

interface Work {
  prediction: BenchPrediction;
  loaded: LoadedInstance;
  patches: PredictionPatches;
}

export async function runBench(opts: BenchRunOptions): Promise<BenchRunResult> {
  const instances = await loadInstances(opts.instances, {
    ...(opts.suites ? { suites: opts.suites } : {}),
    ...(opts.n2pAsF2p ? { n2pAsF2p: true } : {}),
  });
  const byId = new Map(instances.map((i) => [i.instance.instance_id, i]));
  const predictions = await loadPredictions(opts.predictions, instances);
  const clash = modelFolderClash(predictions.map((p) => p.model_name_or_path));
  if (clash) {
    throw new InputError(
      `${opts.predictions}: models "${clash[0]}" and "${clash[1]}" would share the run folder "${modelFolder(clash[0])}"; rename one`,
      opts.predictions,
      'model_name_or_path',
    );
  }
  // Bad patches (a joint diff outside every folder) are input errors: all found before any run.
  const all: Work[] = predictions
    .map((prediction) => {
      const loaded = byId.get(prediction.instance_id)!;
      return {
        prediction,
        loaded,
        patches: predictionPatches(prediction, loaded.instance, opts.predictions),
      };
    })
    .sort(
      (a, b) =>
        a.prediction.model_name_or_path.localeCompare(b.prediction.model_name_or_path) ||
        a.prediction.instance_id.localeCompare(b.prediction.instance_id),
    );
  const mine = opts.shard ? all.filter((_, k) => k % opts.shard!.count === opts.shard!.index - 1) : all;
  const store = RunStore.inRunsDir(opts.runsDir, opts.runId);
  const recorded = await Promise.all(
    mine.map((w) => store.outcome(w.prediction.model_name_or_path, w.prediction.instance_id)),
  );
  const retryErrors = opts.retryErrors ?? true;
  const redo = (o: string | undefined) => o === undefined || (retryErrors && o === 'error');
  const todo = mine.filter((_, k) => redo(recorded[k]));
  const retried = recorded.filter((o) => o === 'error' && retryErrors).length;
  opts.onEvent?.({ type: 'start', total: mine.length, skipped: mine.length - todo.length, retried });

  const warnings: string[] = [];
  const slots = pLimit(Math.max(1, opts.jobs));
  const ctx = {
    states: new BenchStates(opts.engine.cacheDir, new MirrorCache(opts.engine.cacheDir)),
    engine: { ...opts.engine, jobs: opts.jobs, reruns: 0, slots: <T>(fn: () => Promise<T>) => slots(fn) },
    retries: opts.retries,
  };
  // More predictions in flight than slots, so states are made while others' tests run.
  const inFlight = pLimit(Math.max(2, opts.jobs * 2));
  // allSettled: after an interrupt every evaluation finishes its cleanup before this returns.
  const settled = await Promise.allSettled(
    todo.map((w) =>
      inFlight(async () => {
        if (opts.engine.signal?.aborted) return;
        const started = Date.now();
        const model = w.prediction.model_name_or_path;
        const result = w.patches.patchExists
          ? await evaluateCandidate(w.loaded, w.patches.patches, opts.matrix, ctx, {
              attempts: opts.attempts ?? 1,
            })
          : undefined;
        const diagnosis =
          opts.diagnose && result?.kind === 'ran' && !result.report.resolved
            ? await diagnose(w.loaded, w.patches.patches, result.report, ctx)
            : opts.diagnose && result?.kind === 'not-applied'
              ? // A patch that does not apply is wrong in its repository without running anything.
                {
                  labels: result.apply
                    .filter((a) => !a.applied)
                    .map((a) => ({ kind: 'wrong-in-repo' as const, repo: a.repo })),
                  swaps: result.apply
                    .filter((a) => !a.applied)
                    .map((a) => ({ repo: a.repo, outcome: 'not-applied' as const })),
                }
              : undefined;
        if (opts.engine.signal?.aborted) return;
        const entry = instanceEntry({
          instance: w.loaded.instance,
          model,
          patches: w.patches,
          ...(result ? { result } : {}),
          ...(diagnosis ? { diagnosis } : {}),
          durationMs: Date.now() - started,
          testedRepos: testedRepos(w.loaded),
        });
        if (entry.tandem.names_warning)
          warnings.push(`${model} ${w.prediction.instance_id}: ${entry.tandem.names_warning}`);
        await store.write(
          entry,
          w.patches.patches,
          result?.kind === 'ran' ? result.outputs : [],
          result?.kind === 'ran' ? result.rawRuns : undefined,
        );
        opts.onEvent?.({
          type: 'done',
          instanceId: w.prediction.instance_id,
          model,
          outcome: entry.tandem.outcome,
        });
      }),
    ),
  );
  const failed = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
  if (failed) throw failed.reason;
  if (opts.engine.signal?.aborted)
    throw new InfraError('aborted', 'the benchmark run was interrupted; rerun to resume');

  const instanceIds = instances.map((i) => i.instance.instance_id);
  const summaries: BenchRunResult['summaries'] = [];
  for (const model of [...new Set(all.map((w) => w.prediction.model_name_or_path))].sort()) {
    const summary = summarizeRun(await store.entries(model), {
      instanceIds,
      submittedIds: all
        .filter((w) => w.prediction.model_name_or_path === model)
        .map((w) => w.prediction.instance_id),
      model,
      runId: opts.runId,
    });
    summaries.push({ file: await store.writeSummary(summary), summary });
  }
  const missing = [...new Set(all.map((w) => w.prediction.model_name_or_path))].sort().flatMap((model) => {
    const have = new Set(
      all.filter((w) => w.prediction.model_name_or_path === model).map((w) => w.prediction.instance_id),
    );
    const ids = instanceIds.filter((id) => !have.has(id));
    return ids.length ? [{ model, ids }] : [];
  });
  return { summaries, evaluated: todo.length, missing, warnings };
}

/** The repositories the suite's test groups name: those grading gives per-repository metrics. */
export function testedRepos(loaded: LoadedInstance): string[] {
  return [...new Set(loaded.suite.tests.flatMap((g) => (g.repo ? [g.repo] : [])))];
}
