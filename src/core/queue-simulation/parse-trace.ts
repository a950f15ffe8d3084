/**
 * A trace file's text → validated sets. JSON Lines: one set per line; blank lines and lines
 * starting with `#` are skipped. A bad line is named by file and line number, and its field.
 * Ids must be unique and `failsWith` must name sets of the trace. Pure.
 */
import { InputError } from '../errors.ts';
import { validate } from '../zod-issues.ts';
import { type TraceSet, TraceSetSchema } from './trace.schema.ts';

export function parseTrace(text: string, file: string): TraceSet[] {
  const sets: TraceSet[] = [];
  const lineOf = new Map<string, number>();
  for (const [i, raw] of text.split('\n').entries()) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const where = `${file}:${i + 1}`;
    let data: unknown;
    try {
      data = JSON.parse(line);
    } catch (err) {
      throw new InputError(`${where}: not JSON (${(err as Error).message})`, file);
    }
    const set = validate(TraceSetSchema, data, where);
    const seen = lineOf.get(set.id);
    if (seen !== undefined)
      throw new InputError(`${where}: field "id": "${set.id}" is already used on line ${seen}`, file, 'id');
    lineOf.set(set.id, i + 1);
    sets.push(set);
  }
  for (const set of sets)
    for (const other of set.failsWith ?? [])
      if (!lineOf.has(other))
        throw new InputError(
          `${file}:${lineOf.get(set.id)}: field "failsWith": no set "${other}" in the trace`,
          file,
          'failsWith',
        );
  if (sets.length === 0) throw new InputError(`${file}: no sets (one JSON object per line expected)`, file);
  return sets;
}
