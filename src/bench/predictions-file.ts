/**
 * Loads predictions in the three forms SWE-bench accepts: JSON lines, a JSON list, or a JSON
 * object keyed by instance id. `gold` instead of a file scores the instances' own gold patches.
 */

import path from 'node:path';
import { type BenchPrediction, benchPredictionSchema, GOLD_MODEL } from '../core/bench-prediction.schema.ts';
import { errorText } from '../core/error-text.ts';
import { InputError } from '../core/errors.ts';
import { validate } from '../core/zod-issues.ts';
import type { LoadedInstance } from './instances-file.ts';
import { parseJsonLines, type Row, readText } from './json-lines.ts';

export async function loadPredictions(file: string, instances: LoadedInstance[]): Promise<BenchPrediction[]> {
  if (file === GOLD_MODEL) {
    return instances.map(({ instance }) => ({
      instance_id: instance.instance_id,
      model_name_or_path: GOLD_MODEL,
    }));
  }
  const text = await readText(path.resolve(file));
  const predictions = parsePredictions(text, file);
  const known = new Set(instances.map((i) => i.instance.instance_id));
  const seen = new Set<string>();
  for (const p of predictions) {
    const key = `${p.model_name_or_path}\0${p.instance_id}`;
    if (!known.has(p.instance_id)) {
      throw new InputError(
        `${file}: prediction for "${p.instance_id}" (${p.model_name_or_path}): no such instance in the instances file`,
        file,
        'instance_id',
      );
    }
    if (seen.has(key)) {
      throw new InputError(
        `${file}: two predictions for "${p.instance_id}" by ${p.model_name_or_path}`,
        file,
        'instance_id',
      );
    }
    seen.add(key);
  }
  return predictions;
}

export function parsePredictions(text: string, file: string): BenchPrediction[] {
  const trimmed = text.trimStart();
  let rows: Array<Row & { label: string }>;
  // A whole JSON document is parsed once, and read as one JSONL row if it is a single prediction.
  const whole = trimmed.startsWith('[') || (trimmed.startsWith('{') && !isJsonLines(trimmed));
  let doc: unknown;
  if (whole) {
    try {
      doc = JSON.parse(text);
    } catch (err) {
      throw new InputError(`${file}: not valid JSON: ${errorText(err)}`, file);
    }
  }
  if (whole && !isOneRow(doc)) {
    rows = Array.isArray(doc)
      ? doc.map((value, i) => ({ line: i, value, label: `${file}: [${i}]` }))
      : Object.entries(doc as Record<string, unknown>).map(([id, value], i) => ({
          line: i,
          // The key is the id; a row may repeat it, but must not contradict it.
          value: isRecord(value) ? { instance_id: id, ...value } : value,
          label: `${file}: ["${id}"]`,
        }));
    if (!Array.isArray(doc)) {
      for (const [id, value] of Object.entries(doc as Record<string, unknown>)) {
        if (isRecord(value) && value.instance_id !== undefined && value.instance_id !== id) {
          throw new InputError(
            `${file}: ["${id}"]: field "instance_id": "${String(value.instance_id)}" differs from its key`,
            file,
            'instance_id',
          );
        }
      }
    }
  } else {
    rows = parseJsonLines(text, file).map((r) => ({ ...r, label: `${file}:${r.line}` }));
  }
  if (rows.length === 0) throw new InputError(`${file}: no predictions`, file);
  return rows.map((r) => validate(benchPredictionSchema, r.value, r.label));
}

/** `{…}\n{…}`: an object on the first line followed by more lines holding objects. */
function isJsonLines(text: string): boolean {
  const lines = text.split('\n').filter((l) => l.trim() !== '');
  if (lines.length < 2) return false;
  try {
    JSON.parse(lines[0]!);
    return true;
  } catch {
    return false;
  }
}

/** A file of one JSONL row: an object that is itself a prediction, not keyed by id. */
function isOneRow(v: unknown): boolean {
  return isRecord(v) && typeof v.model_name_or_path === 'string';
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
