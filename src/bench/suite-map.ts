/** Reads a suite map file (`--suites`, YAML or JSON): which suite tests which repository's rows. */

import path from 'node:path';
import YAML from 'yaml';
import { type SuiteMap, suiteMapSchema } from '../core/bench-suite-map.schema.ts';
import { errorText } from '../core/error-text.ts';
import { InputError } from '../core/errors.ts';
import { validate } from '../core/zod-issues.ts';
import { readText } from './json-lines.ts';

export interface LoadedSuiteMap {
  file: string;
  /** The folder suite paths and local URLs are relative to. */
  dir: string;
  map: SuiteMap;
}

export async function loadSuiteMap(file: string): Promise<LoadedSuiteMap> {
  const abs = path.resolve(file);
  let doc: unknown;
  try {
    doc = YAML.parse(await readText(abs));
  } catch (err) {
    if (err instanceof InputError) throw err;
    throw new InputError(`${file}: not valid YAML or JSON: ${errorText(err)}`, file);
  }
  return { file, dir: path.dirname(abs), map: validate(suiteMapSchema, doc, file) };
}
