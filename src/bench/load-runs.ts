/** Reads run folders (`runs/<run-id>`) back: each model's summary and its per-prediction entries. */
import type { BenchRunData } from '../report/bench-view.ts';
import { RunStore } from './run-store.ts';

export async function loadRuns(dirs: string[]): Promise<BenchRunData[]> {
  const out: BenchRunData[] = [];
  for (const dir of dirs) {
    const { store, summaries } = await RunStore.open(dir);
    for (const summary of summaries) {
      out.push({ runId: store.runId, summary, entries: await store.entries(summary.model_name_or_path) });
    }
  }
  return out;
}
