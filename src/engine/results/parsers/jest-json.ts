import { z } from 'zod';
import { formatFieldPath } from '../../../core/errors.ts';
import type { TestResult, TestStatus } from '../../../core/run.schema.ts';
import { describeIssues } from '../../../core/zod-issues.ts';
import { parseJsonAt } from './json-path.ts';
import { ResultParseError } from './parser.ts';
import { cleanMessage, type RawTest, readableText, toResults } from './result-builder.ts';

/**
 * `jest --json` and `vitest --reporter=json` (the same shape). classname is the test file,
 * relative and machine-independent, then the describe blocks, joined with ' > '; name is the
 * test's title. Both runners report a retried test once with its final status (earlier attempts'
 * errors linger in failureMessages, so a passed test gets no message). A file that failed before
 * running any test becomes one failed test, `<file>::(file failed to load)`, so it is seen.
 */

import { FILE_LOAD_FAILURE } from '../../../core/test-id.ts';

export { FILE_LOAD_FAILURE };

/** Where the sandbox mounts the workspace; paths under it are cut to the part after it. */
const WORKSPACE_ROOT = '/tandem/workspace/';

/**
 * A title as jest names it: jest 22 keeps a non-string title as given (`it([2010, 1, 14])` writes
 * an array into the report) and prints it the way JavaScript turns it into text (`2010,1,14`).
 */
const titleSchema = z.unknown().transform((v) => (typeof v === 'string' ? v : jsTitle(v)));

function jsTitle(v: unknown): string {
  if (v === null || v === undefined) return String(v);
  if (typeof v === 'object' && !Array.isArray(v)) return JSON.stringify(v);
  return String(v);
}

const assertionSchema = z.object({
  ancestorTitles: z.array(titleSchema).default([]),
  title: titleSchema,
  status: z.string(),
  duration: z.number().nullish(),
  failureMessages: z.array(z.string()).nullish(),
});

const reportSchema = z.object({
  testResults: z.array(
    z.object({
      name: z.string(),
      status: z.string().optional(),
      message: z.string().nullish(),
      assertionResults: z.array(assertionSchema).default([]),
    }),
  ),
});

const STATUS: Record<string, TestStatus> = {
  passed: 'passed',
  failed: 'failed',
  pending: 'skipped',
  skipped: 'skipped',
  todo: 'skipped',
  disabled: 'skipped',
};

/**
 * Makes file paths stable across machines: the part after the workspace root, else relative to
 * the deepest folder all the report's files share.
 */
export function relativeFiles(names: readonly string[]): (name: string) => string {
  const norm = (n: string) => n.replaceAll('\\', '/');
  const rest = names.map(norm).filter((n) => !n.includes(WORKSPACE_ROOT) && n.startsWith('/'));
  let common = '';
  if (rest.length > 0) {
    const dirs = rest.map((n) => n.split('/').slice(0, -1));
    const first = dirs[0]!;
    let len = first.length;
    for (const d of dirs) {
      let i = 0;
      while (i < len && i < d.length && d[i] === first[i]) i++;
      len = i;
    }
    common = `${first.slice(0, len).join('/')}/`;
  }
  return (name) => {
    const n = norm(name);
    const at = n.indexOf(WORKSPACE_ROOT);
    if (at >= 0) return n.slice(at + WORKSPACE_ROOT.length);
    if (common && n.startsWith(common)) return n.slice(common.length);
    return n.replace(/^\.\//, '');
  };
}

function readReport(text: string, format: string): z.infer<typeof reportSchema> {
  const read = parseJsonAt(text);
  if (!read.ok) throw new ResultParseError(`${format} result is not JSON${read.message}`);
  const json = read.value;
  const parsed = reportSchema.safeParse(json);
  if (!parsed.success) {
    // The same formatter as every input file; zod's messages name the field, never quote the file.
    const { text } = describeIssues(parsed.error, { label: (p) => `at ${formatFieldPath(p)}` });
    throw new ResultParseError(`${format} result has an unexpected shape ${text}`);
  }
  return parsed.data;
}

function parseJestShape(text: string, group: string, format: string): TestResult[] {
  const report = readReport(readableText(text, format), format);
  const relative = relativeFiles(report.testResults.map((f) => f.name));
  const tests: RawTest[] = [];
  for (const file of report.testResults) {
    const path = relative(file.name);
    if (file.assertionResults.length === 0 && file.status === 'failed') {
      const message = cleanMessage(file.message);
      tests.push({
        classname: path,
        name: FILE_LOAD_FAILURE,
        status: 'failed',
        ...(message ? { message } : {}),
      });
      continue;
    }
    for (const a of file.assertionResults) {
      const status: TestStatus = Object.hasOwn(STATUS, a.status) ? STATUS[a.status]! : 'error';
      const message =
        status === 'passed'
          ? undefined
          : status === 'error'
            ? cleanMessage(`unknown test status "${a.status}"`, ...(a.failureMessages ?? []))
            : cleanMessage(...(a.failureMessages ?? []));
      tests.push({
        classname: [path, ...a.ancestorTitles].join(' > '),
        name: a.title,
        status,
        ...(message === undefined ? {} : { message }),
        ...(typeof a.duration === 'number' ? { durationMs: a.duration } : {}),
      });
    }
  }
  return toResults(group, tests);
}

export function parseJestJson(text: string, group: string): TestResult[] {
  return parseJestShape(text, group, 'jest --json');
}

export function parseVitestJson(text: string, group: string): TestResult[] {
  return parseJestShape(text, group, 'vitest json');
}
