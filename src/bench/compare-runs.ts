/**
 * `tandem bench compare <runA> <runB>`: the two runs' per-instance outcomes paired (see
 * core/bench-compare.ts). A run folder with several models needs the model named.
 */
import { compareRuns, type RunComparison } from '../core/bench-compare.ts';
import type { RunSummary } from '../core/bench-report.schema.ts';
import { InputError } from '../core/errors.ts';
import { RunStore } from './run-store.ts';

export interface CompareOptions {
  runA: string;
  runB: string;
  modelA?: string;
  modelB?: string;
  maxRegression?: number;
}

async function pick(dir: string, model: string | undefined, flag: string): Promise<RunSummary> {
  const { summaries } = await RunStore.open(dir);
  const models = summaries.map((s) => s.model_name_or_path);
  const found =
    model === undefined && summaries.length === 1
      ? summaries[0]
      : summaries.find((s) => s.model_name_or_path === model);
  if (!found) {
    throw new InputError(
      model === undefined
        ? `${dir}: holds several models (${models.join(', ')}); name one with ${flag}`
        : `${dir}: no model "${model}" (have: ${models.join(', ')})`,
      dir,
      flag,
    );
  }
  return found;
}

export async function compareRunFolders(
  opts: CompareOptions,
): Promise<RunComparison & { modelA: string; modelB: string }> {
  const a = await pick(opts.runA, opts.modelA, '--model-a');
  const b = await pick(opts.runB, opts.modelB, '--model-b');
  // Judged on every instance either run was given: a missing result is not resolved.
  const instances = [...a.submitted_ids, ...b.submitted_ids];
  return {
    modelA: a.model_name_or_path,
    modelB: b.model_name_or_path,
    ...compareRuns(instances, a.resolved_ids, b.resolved_ids, opts.maxRegression),
  };
}
