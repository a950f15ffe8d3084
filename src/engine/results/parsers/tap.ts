import { type Result, Parser as TapParser, type Parser as TapParserType } from 'tap-parser';
import type { TestResult, TestStatus } from '../../../core/run.schema.ts';
import { INCOMPLETE_STREAM } from '../../../core/test-id.ts';
import { ResultParseError } from './parser.ts';
import { cleanMessage, type RawTest, readableText, toResults } from './result-builder.ts';

/**
 * TAP 13/14 via tap-parser, subtests included (node's `--test-reporter=tap` nests describe
 * blocks and `t.test` calls as subtests). Only leaves are tests: a test point that closes a
 * subtest is a suite, and its outcome is its children's. classname is the subtest path joined
 * with ' > ' (empty at the top level), matching node's junit reporter. `# TODO` counts as
 * skipped whatever its ok-ness, as TAP consumers do. A bail out ends the stream: the tests seen
 * so far are returned and the rest are missing, which grading counts as failed. A stream that
 * ends without its plan (and without a bail out) was cut short, the runner dying before it could
 * say how many tests there were (a mocha file that fails to import, a crash): it also gets one
 * failed `(stream ended without a plan)` at the top level, which holds the whole group
 * (core/test-id.ts), so a run that stopped before its first test is not an empty pass.
 */

interface Seen {
  result: Result;
  parser: TapParserType;
}

function status(r: Result): TestStatus {
  if (r.todo !== false || r.skip !== false) return 'skipped';
  return r.ok ? 'passed' : 'failed';
}

function diagText(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  return typeof value === 'string' ? value : JSON.stringify(value);
}

function message(r: Result, s: TestStatus): string | undefined {
  if (s === 'skipped') {
    const reason = r.todo !== false ? r.todo : r.skip;
    return typeof reason === 'string' ? cleanMessage(reason) : undefined;
  }
  if (s === 'passed') return undefined;
  // node puts the error under `error`; tap and others use `message`.
  const diag = (r.diag ?? {}) as Record<string, unknown>;
  return cleanMessage(diagText(diag.error) ?? diagText(diag.message));
}

function duration(r: Result): number | undefined {
  const ms = (r.diag as Record<string, unknown> | null)?.duration_ms;
  if (typeof ms === 'number' && Number.isFinite(ms)) return ms;
  return typeof r.time === 'number' && Number.isFinite(r.time) ? r.time : undefined;
}

/** Names of the subtests enclosing `parser`, outermost first (read after parsing, when set). */
function path(parser: TapParserType): string[] {
  const names: string[] = [];
  for (let p: TapParserType | null = parser; p?.parent; p = p.parent) {
    // TAP 14 allows a subtest without a `# Subtest:` comment: its name is its closing point's.
    names.unshift(p.name.trim() || p.closingTestPoint?.name.trim() || '(unnamed)');
  }
  return names;
}

export function parseTap(text: string, group: string): TestResult[] {
  const body = readableText(text, 'TAP');
  const seen: Seen[] = [];
  let looksLikeTap = false;
  const root = new TapParser({ name: '' });
  const attach = (parser: TapParserType) => {
    parser.on('assert', (result: Result) => {
      seen.push({ result, parser });
    });
    parser.on('child', (child: TapParserType) => {
      looksLikeTap = true;
      attach(child);
    });
  };
  attach(root);
  // At end() tap-parser invents a version and a `1..0` plan for streams without them, so only
  // what it reads while writing tells TAP from garbage.
  let writing = true;
  const real = () => {
    if (writing) looksLikeTap = true;
  };
  let planned = false;
  let bailed = false;
  root.on('version', real);
  root.on('plan', () => {
    real();
    if (writing) planned = true;
  });
  root.on('bailout', () => {
    bailed = true;
  });
  // tap-parser never throws on input; it reports what it could read.
  root.write(body.endsWith('\n') ? body : `${body}\n`);
  writing = false;
  root.end();
  if (!looksLikeTap && seen.length === 0) {
    throw new ResultParseError('not a TAP stream: no version line, plan or test points found');
  }
  const tests: RawTest[] = seen
    .filter(({ result }) => !result.closingTestPoint)
    .map(({ result, parser }) => {
      const s = status(result);
      const msg = message(result, s);
      const ms = duration(result);
      return {
        classname: path(parser).join(' > '),
        name: result.name.trim() || `(unnamed #${result.id})`,
        status: s,
        ...(msg === undefined ? {} : { message: msg }),
        ...(ms === undefined ? {} : { durationMs: ms }),
      };
    });
  if (!planned && !bailed) {
    tests.push({
      classname: '',
      name: INCOMPLETE_STREAM,
      status: 'failed',
      message: 'the TAP stream ended before its plan (1..N): the runner stopped early',
    });
  }
  return toResults(group, tests);
}
