/**
 * Reads JSON-lines files with the line number of every row kept, so a bad row is reported as
 * `file:line: field "…": …` — the way users find it in a 10,000-line instances file.
 */

import { readFile } from 'node:fs/promises';
import { errorCodeOrText, errorText } from '../core/error-text.ts';
import { InputError } from '../core/errors.ts';

export interface Row {
  line: number;
  value: unknown;
}

export async function readText(file: string): Promise<string> {
  try {
    return await readFile(file, 'utf8');
  } catch (err) {
    throw new InputError(`cannot read ${file}: ${errorCodeOrText(err)}`, file);
  }
}

/** Non-blank lines parsed as JSON; a line that is not JSON names itself. */
export function parseJsonLines(text: string, file: string): Row[] {
  const rows: Row[] = [];
  text.split('\n').forEach((raw, i) => {
    if (raw.trim() === '') return;
    try {
      rows.push({ line: i + 1, value: JSON.parse(raw) });
    } catch (err) {
      throw new InputError(`${file}:${i + 1}: not valid JSON: ${errorText(err)}`, file);
    }
  });
  return rows;
}

/** Rows as JSON-lines text: one JSON value a line, each line ending in a newline. */
export function toJsonLines(rows: readonly unknown[]): string {
  return rows.map((r) => `${JSON.stringify(r)}\n`).join('');
}
