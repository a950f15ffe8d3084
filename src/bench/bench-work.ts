/**
 * What a `tandem bench run` has to do, decided before anything runs: the predictions paired with
 * their instances and patches in a fixed order, this shard's share of them, which of those a
 * rerun evaluates again, and which instances a model submitted nothing for. Pure.
 */
import { type BenchPrediction, modelFolder, modelFolderClash } from '../core/bench-prediction.schema.ts';
import { InputError } from '../core/errors.ts';
import type { Shard } from '../core/shard-plan.ts';
import type { LoadedInstance } from './instances-file.ts';
import { type PredictionPatches, predictionPatches } from './prediction-patches.ts';

/** One prediction to evaluate: its instance and its diff per repository. */
export interface BenchWork {
  prediction: BenchPrediction;
  loaded: LoadedInstance;
  patches: PredictionPatches;
}

/**
 * Every prediction paired with its instance and patches, by model then instance id. Input errors
 * (two models sharing a run folder, a joint diff outside every folder) are all found here, before
 * any run. `predictions` were loaded against `instances`, so every instance id is known.
 */
export function planBenchWork(
  predictions: readonly BenchPrediction[],
  instances: readonly LoadedInstance[],
  predictionsFile: string,
): BenchWork[] {
  const clash = modelFolderClash(predictions.map((p) => p.model_name_or_path));
  if (clash) {
    throw new InputError(
      `${predictionsFile}: models "${clash[0]}" and "${clash[1]}" would share the run folder "${modelFolder(clash[0])}"; rename one`,
      predictionsFile,
      'model_name_or_path',
    );
  }
  const byId = new Map(instances.map((i) => [i.instance.instance_id, i]));
  return predictions
    .map((prediction) => {
      const loaded = byId.get(prediction.instance_id)!;
      return { prediction, loaded, patches: predictionPatches(prediction, loaded.instance, predictionsFile) };
    })
    .sort(
      (a, b) =>
        a.prediction.model_name_or_path.localeCompare(b.prediction.model_name_or_path) ||
        a.prediction.instance_id.localeCompare(b.prediction.instance_id),
    );
}

/** Shard i of n's round-robin share of the ordered work; all of it without a shard. */
export function shardShare<T>(work: readonly T[], shard: Shard | undefined): T[] {
  return shard ? work.filter((_, k) => k % shard.count === shard.index - 1) : [...work];
}

/**
 * Of the work, what this invocation evaluates: what has no recorded outcome yet, and what ended in
 * an error when `retryErrors` (`retried` counts those). `recorded[k]` is `work[k]`'s outcome.
 */
export function pendingWork<T>(
  work: readonly T[],
  recorded: ReadonlyArray<string | undefined>,
  retryErrors: boolean,
): { todo: T[]; retried: number } {
  const redo = (o: string | undefined) => o === undefined || (retryErrors && o === 'error');
  return {
    todo: work.filter((_, k) => redo(recorded[k])),
    retried: retryErrors ? recorded.filter((o) => o === 'error').length : 0,
  };
}

/** The models of the work, sorted, each once. */
export function modelsOf(work: readonly BenchWork[]): string[] {
  return [...new Set(work.map((w) => w.prediction.model_name_or_path))].sort();
}

/** The instance ids the model submitted a prediction for, in work order. */
export function submittedIds(work: readonly BenchWork[], model: string): string[] {
  return work.filter((w) => w.prediction.model_name_or_path === model).map((w) => w.prediction.instance_id);
}

/** Per model, the instances (in file order) it has no prediction for; models missing none are left out. */
export function missingPredictions(
  work: readonly BenchWork[],
  instanceIds: readonly string[],
): Array<{ model: string; ids: string[] }> {
  return modelsOf(work).flatMap((model) => {
    const have = new Set(submittedIds(work, model));
    const ids = instanceIds.filter((id) => !have.has(id));
    return ids.length ? [{ model, ids }] : [];
  });
}
