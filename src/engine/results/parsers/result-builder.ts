import type { TestResult, TestStatus } from '../../../core/run.schema.ts';
import { disambiguate, testId } from '../../../core/test-id.ts';
import { ResultParseError } from './parser.ts';

/** One test as a format reports it, before it gets its id. */
export interface RawTest {
  classname: string;
  name: string;
  status: TestStatus;
  message?: string;
  durationMs?: number;
}

/** Messages end up in comments and reports; a whole stack trace per test would drown them. */
export const MESSAGE_CAP = 2000;

// CSI and OSC escape sequences: jest and vitest colour their failure messages.
const ANSI = /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007]*\u0007/g;

/** Trims, strips terminal colours and caps a message; undefined when nothing is left. */
export function cleanMessage(...parts: Array<string | undefined | null>): string | undefined {
  const seen = new Set<string>();
  const kept: string[] = [];
  for (const part of parts) {
    const text = part?.replace(ANSI, '').trim();
    if (!text || seen.has(text)) continue;
    seen.add(text);
    kept.push(text);
  }
  if (kept.length === 0) return undefined;
  const joined = kept.join('\n');
  if (joined.length <= MESSAGE_CAP) return joined;
  let cut = MESSAGE_CAP - 1;
  // Do not split a surrogate pair (an emoji in a test name would turn into garbage).
  if (/[\uD800-\uDBFF]/.test(joined[cut - 1] ?? '')) cut--;
  return `${joined.slice(0, cut)}…`;
}

/** Seconds (as JUnit and go report them) to milliseconds; undefined for anything unreadable. */
export function secondsToMs(value: unknown): number | undefined {
  const n =
    typeof value === 'number' ? value : typeof value === 'string' ? Number.parseFloat(value) : Number.NaN;
  return Number.isFinite(n) && n >= 0 ? Math.round(n * 1_000_000) / 1000 : undefined;
}

/**
 * Gives raw tests their ids. Same (classname, name) pairs stay apart (`#2`, `#3` in file order):
 * two tests that share a name are two tests, and merging them would hide a failure.
 */
export function toResults(group: string, tests: RawTest[]): TestResult[] {
  const ids = disambiguate(tests.map((t) => testId(group, t.classname, t.name)));
  return tests.map((t, i) => {
    const result: TestResult = { id: ids[i]!, status: t.status };
    if (t.message !== undefined) result.message = t.message;
    if (t.durationMs !== undefined) result.durationMs = t.durationMs;
    return result;
  });
}

/**
 * Drops a byte-order mark (Windows tools write one; XML and JSON parsers choke on it) and
 * rejects an empty file: the runner usually died before writing, so say so plainly.
 */
export function readableText(text: string, format: string): string {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  if (body.trim() === '') throw new ResultParseError(`${format} result file is empty`);
  return body;
}
