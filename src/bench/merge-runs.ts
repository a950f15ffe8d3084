/**
 * `tandem bench merge`: the shard run folders of one benchmark (`--shard i/n` jobs) into one run
 * folder, finished predictions copied and the summaries recomputed from them, so the merged
 * summary equals the one an unsharded run would have written.
 */
import { cp, readdir } from 'node:fs/promises';
import path from 'node:path';
import type { RunSummary } from '../core/bench-report.schema.ts';
import { summarizeRun } from '../core/bench-summary.ts';
import { InputError } from '../core/errors.ts';
import { exists } from '../engine/fs-util.ts';
import { loadInstances } from './instances-file.ts';
import { RunStore, readSummary } from './run-store.ts';

export async function mergeRuns(
  dirs: string[],
  out: string,
  instancesFile: string,
): Promise<Array<{ file: string; summary: RunSummary }>> {
  const instanceIds = (await loadInstances(instancesFile)).map((i) => i.instance.instance_id);
  const target = new RunStore(path.dirname(path.resolve(out)), path.basename(path.resolve(out)));
  const submitted = new Map<string, Set<string>>();
  for (const dir of dirs) {
    const abs = path.resolve(dir);
    const source = new RunStore(path.dirname(abs), path.basename(abs));
    const models = await source.models();
    if (models.length === 0)
      throw new InputError(`${dir}: no run summary (<model>.<run-id>.json) in this folder`, dir);
    for (const folder of models) {
      const summary = await readSummary(path.join(abs, `${folder}.${source.runId}.json`));
      const ids = submitted.get(summary.model_name_or_path) ?? new Set<string>();
      for (const id of summary.submitted_ids) ids.add(id);
      submitted.set(summary.model_name_or_path, ids);
      if (abs === target.dir) continue;
      for (const inst of await readdir(path.join(abs, folder)).catch(() => [] as string[])) {
        const from = path.join(abs, folder, inst);
        if (!(await exists(path.join(from, 'report.json')))) continue;
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
