import type { TestResult } from '../../../core/run.schema.ts';
import type { ResultFormat } from '../../../core/suite.schema.ts';
import { parseGoTestJson } from './go-test-json.ts';
import { parseJestJson, parseVitestJson } from './jest-json.ts';
import { parseJunit } from './junit.ts';
import type { ResultParser } from './parser.ts';
import { parseTap } from './tap.ts';

export { FILE_LOAD_FAILURE } from './jest-json.ts';
export { ResultParseError, type ResultParser } from './parser.ts';

/** One parser per suite `results.format`; the Record type keeps it complete. */
export const parsers: Readonly<Record<ResultFormat, ResultParser>> = {
  junit: parseJunit,
  tap: parseTap,
  'go-test-json': parseGoTestJson,
  'jest-json': parseJestJson,
  'vitest-json': parseVitestJson,
};

/** Parses one result file; throws ResultParseError when the text cannot be read as `format`. */
export function parseResults(format: ResultFormat, text: string, group: string): TestResult[] {
  return parsers[format](text, group);
}
