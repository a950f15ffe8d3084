/**
 * `tandem bench merge`: the shard run folders of one benchmark (`--shard i/n` jobs) into one run
 * folder, finished predictions copied and the summaries recomputed from them, so the merged
 * summary equals the one an unsharded run would have written.
 */
import { cp, readdir } from 'node:fs/promises';
import path from 'node:path';
import { modelFolder } from '../core/bench-prediction.schema.ts';
import type { RunSummary } from '../core/bench-report.schema.ts';
import { summarizeRun } from '../core/bench-summary.ts';
import { InputError } from '../core/errors.ts';
import { loadInstances } from './instances-file.ts';
import { RunStore } from './run-store.ts';

export async function combineRuns(
  dirs: string[],
  out: string,
  instancesFile: string,
): Promise<Array<{ file: string; summary: RunSummary }>> {
  const instanceIds = (await loadInstances(instancesFile)).map((i) => i.instance.instance_id);
  const sources = await Promise.all(dirs.map((d) => RunStore.open(d)));
  const runIds = [...new Set(sources.map((s) => s.store.runId))];
  if (runIds.length > 1)
    throw new InputError(`bench merge: the folders hold different runs (${runIds.join(', ')})`);
  // The merged run keeps the shards' run id, whatever the output folder is called.
  const target = new RunStore(path.resolve(out), runIds[0]!);
  const submitted = new Map<string, Set<string>>();
  for (const { store: source, summaries } of sources) {
    for (const summary of summaries) {
      const ids = submitted.get(summary.model_name_or_path) ?? new Set<string>();
      for (const id of summary.submitted_ids) ids.add(id);
      submitted.set(summary.model_name_or_path, ids);
      if (source.dir === target.dir) continue;
      const folder = modelFolder(summary.model_name_or_path);
      for (const inst of await readdir(path.join(source.dir, folder)).catch(() => [] as string[])) {
        const from = path.join(source.dir, folder, inst);
        if (!(await source.isFinished(summary.model_name_or_path, inst))) continue;
        await cp(from, path.join(target.dir, folder, inst), { recursive: true, force: true });
      }
    }
  }
  const result: Array<{ file: string; summary: RunSummary }> = [];
  for (const [model, ids] of [...submitted].sort(([a], [b]) => a.localeCompare(b))) {
    const summary = summarizeRun(await target.entries(model), {
      instanceIds,
      submittedIds: [...ids],
      model,
      runId: target.runId,
    });
    result.push({ file: await target.writeSummary(summary), summary });
  }
  return result;
}
