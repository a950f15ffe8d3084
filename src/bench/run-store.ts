/**
 * The on-disk layout of a benchmark run, SWE-bench-like:
 *   <runs>/<run-id>/<model>/<instance_id>/report.json   (written last: its presence = finished)
 *   <runs>/<run-id>/<model>/<instance_id>/patch.<repo folder>.diff
 *   <runs>/<run-id>/<model>/<instance_id>/outputs/<configuration>[.<attempt>]/<group>.txt
 *   <runs>/<run-id>/<model>/<instance_id>/runs.json      (the raw runs, for `bench regrade`)
 *   <runs>/<run-id>/<model>.<run-id>.json                (the run summary)
 * A killed run leaves no report.json for unfinished predictions, so a resumed run redoes them.
 */

import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { modelFolder } from '../core/bench-prediction.schema.ts';
import {
  type InstanceReportEntry,
  instanceReportSchema,
  type RunSummary,
  runSummarySchema,
} from '../core/bench-report.schema.ts';
import { workspaceName } from '../core/case.schema.ts';
import { errorCodeOrText, errorText } from '../core/error-text.ts';
import { InputError } from '../core/errors.ts';
import { type ConfigurationRun, configurationRunSchema } from '../core/run.schema.ts';
import { validate } from '../core/zod-issues.ts';
import { exists } from '../engine/fs-util.ts';
import type { GroupOutput } from './evaluate-candidate.ts';

export class RunStore {
  constructor(
    /** The run folder (`<runs>/<run-id>`, or a shard's downloaded copy of it). */
    readonly dir: string,
    readonly runId: string,
  ) {}

  static inRunsDir(runsDir: string, runId: string): RunStore {
    return new RunStore(path.resolve(runsDir, runId), runId);
  }

  /**
   * An existing run folder, whatever it is called now (a CI artifact folder, say): the run id
   * and the models are read from its summaries.
   */
  static async open(dir: string): Promise<{ store: RunStore; summaries: RunSummary[] }> {
    const abs = path.resolve(dir);
    const files = (await readdir(abs).catch(() => [] as string[])).filter((f) => f.endsWith('.json')).sort();
    const summaries: RunSummary[] = [];
    for (const f of files) summaries.push(await readSummary(path.join(abs, f)));
    const ids = [...new Set(summaries.map((s) => s.run_id))];
    if (ids.length !== 1) {
      throw new InputError(
        ids.length === 0
          ? `${dir}: no run summary (<model>.<run-id>.json) in this folder`
          : `${dir}: summaries of several runs (${ids.join(', ')}) in one folder`,
        dir,
      );
    }
    return { store: new RunStore(abs, ids[0]!), summaries };
  }

  instanceDir(model: string, instanceId: string): string {
    return path.join(this.dir, modelFolder(model), instanceId);
  }

  summaryPath(model: string): string {
    return path.join(this.dir, `${modelFolder(model)}.${this.runId}.json`);
  }

  /** report.json is written atomically (writeJsonAtomic), so its presence means finished. */
  isFinished(model: string, instanceId: string): Promise<boolean> {
    return exists(path.join(this.instanceDir(model, instanceId), 'report.json'));
  }

  /** The outcome a finished prediction recorded, undefined when it has no (readable) report. */
  async outcome(model: string, instanceId: string): Promise<string | undefined> {
    const file = path.join(this.instanceDir(model, instanceId), 'report.json');
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch {
      return undefined;
    }
    const entry = Object.values(parseJson(instanceReportSchema, text, file))[0];
    return entry?.tandem.outcome;
  }

  /** The raw runs a prediction stored (absent for one that never ran). */
  async runs(model: string, instanceId: string): Promise<ConfigurationRun[] | undefined> {
    const file = path.join(this.instanceDir(model, instanceId), 'runs.json');
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch {
      return undefined;
    }
    return parseJson(z.array(configurationRunSchema), text, file);
  }

  /** Patches and outputs first, report.json last and atomically. */
  async write(
    entry: InstanceReportEntry,
    patches: Record<string, string>,
    outputs: GroupOutput[],
    runs?: ConfigurationRun[],
  ): Promise<void> {
    const dir = this.instanceDir(entry.tandem.model_name_or_path, entry.tandem.instance_id);
    await rm(dir, { recursive: true, force: true });
    await mkdir(dir, { recursive: true });
    for (const [repo, diff] of Object.entries(patches)) {
      await writeFile(path.join(dir, `patch.${workspaceName(repo)}.diff`), diff);
    }
    for (const o of outputs) {
      const sub = path.join(dir, 'outputs', o.attempt ? `${o.configuration}.${o.attempt}` : o.configuration);
      await mkdir(sub, { recursive: true });
      await writeFile(path.join(sub, `${o.group}.txt`), o.output);
    }
    if (runs) await writeJsonAtomic(path.join(dir, 'runs.json'), runs);
    await writeJsonAtomic(path.join(dir, 'report.json'), { [entry.tandem.instance_id]: entry });
  }

  /** Every finished entry of `model` under this run (all shards that wrote here). */
  async entries(model: string): Promise<InstanceReportEntry[]> {
    const root = path.join(this.dir, modelFolder(model));
    let names: string[];
    try {
      names = (await readdir(root, { withFileTypes: true }))
        .filter((e) => e.isDirectory())
        .map((e) => e.name);
    } catch {
      return [];
    }
    const out: InstanceReportEntry[] = [];
    for (const name of names.sort()) {
      const file = path.join(root, name, 'report.json');
      let text: string;
      try {
        text = await readFile(file, 'utf8');
      } catch {
        continue;
      }
      out.push(...Object.values(parseJson(instanceReportSchema, text, file)));
    }
    return out;
  }

  async writeSummary(summary: RunSummary): Promise<string> {
    const file = this.summaryPath(summary.model_name_or_path);
    await writeJsonAtomic(file, summary);
    return file;
  }
}

export async function readSummary(file: string): Promise<RunSummary> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    throw new InputError(`cannot read ${file}: ${errorCodeOrText(err)}`, file);
  }
  return parseJson(runSummarySchema, text, file);
}

function parseJson<S extends z.ZodType>(schema: S, text: string, file: string): z.output<S> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new InputError(`${file}: not valid JSON: ${errorText(err)}`, file);
  }
  return validate(schema, value, file);
}

export async function writeJsonAtomic(file: string, value: unknown): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  const tmp = `${file}.tmp-${process.pid}`;
  await writeFile(tmp, `${JSON.stringify(value, null, 2)}\n`);
  await rename(tmp, file);
}
