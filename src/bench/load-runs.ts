/** Reads run folders (`runs/<run-id>`) back: each model's summary and its per-prediction entries. */
import path from 'node:path';
import { InputError } from '../core/errors.ts';
import type { BenchRunData } from '../report/bench-view.ts';
import { RunStore, readSummary } from './run-store.ts';

export async function loadRuns(dirs: string[]): Promise<BenchRunData[]> {
  const out: BenchRunData[] = [];
  for (const dir of dirs) {
    const abs = path.resolve(dir);
    const store = new RunStore(path.dirname(abs), path.basename(abs));
    const models = await store.models();
    if (models.length === 0)
      throw new InputError(`${dir}: no run summary (<model>.<run-id>.json) in this folder`, dir);
    for (const folder of models) {
      const summary = await readSummary(path.join(abs, `${folder}.${store.runId}.json`));
      out.push({ runId: store.runId, summary, entries: await store.entries(summary.model_name_or_path) });
    }
  }
  return out;
}
