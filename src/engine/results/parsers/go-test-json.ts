import { z } from 'zod';
import type { TestResult, TestStatus } from '../../../core/run.schema.ts';
import { BUILD_FAILURE } from '../../../core/test-id.ts';
import { ResultParseError } from './parser.ts';
import { cleanMessage, type RawTest, readableText, secondsToMs, toResults } from './result-builder.ts';

/**
 * `go test -json` (test2json): one JSON event per line. classname is the package import path,
 * name the test (`TestX/sub` stays whole: Go users name subtests that way). Events are the
 * life of one test, so a test reported twice (`-count=2`, reruns) keeps its last outcome.
 * Package-level events carry no test and create none, except a package that did not build: it
 * becomes one failed `<package>::[build failed]` with the compiler's output as its message (its
 * tests stay missing, which grading counts as failed). Go ≥ 1.24 says so with `build-output` /
 * `build-fail` events and `FailedBuild`; older versions with `FAIL <pkg> [build failed]` output
 * (plain text before Go 1.24, even among other packages' events) and, for a stream that holds no
 * event at all, plain `# <pkg>` compiler headers.
 */

const eventSchema = z.object({
  Action: z.string(),
  Package: z.string().optional(),
  /** Go ≥ 1.24 build events: `pkg [pkg.test]`. */
  ImportPath: z.string().optional(),
  FailedBuild: z.string().optional(),
  Test: z.string().optional(),
  Output: z.string().optional(),
  Elapsed: z.number().optional(),
});

type GoEvent = z.infer<typeof eventSchema>;

interface Tracked {
  classname: string;
  name: string;
  status?: TestStatus;
  output: string[];
  durationMs?: number;
}

const TERMINAL: Record<string, TestStatus> = { pass: 'passed', fail: 'failed', skip: 'skipped' };

// The framing lines go prints around a test's own output; they say nothing a status does not.
const FRAMING = /^\s*(=== (RUN|PAUSE|CONT|NAME)\s|--- (PASS|FAIL|SKIP): )/;

function events(text: string): GoEvent[] {
  const out: GoEvent[] = [];
  for (const line of text.split('\n')) {
    const trimmed = line.trim();
    if (!trimmed.startsWith('{')) continue;
    let json: unknown;
    try {
      json = JSON.parse(trimmed);
    } catch {
      continue; // build output or a test printing braces to stdout
    }
    const parsed = eventSchema.safeParse(json);
    if (parsed.success) out.push(parsed.data);
  }
  return out;
}

function message(t: Tracked, status: TestStatus): string | undefined {
  const own = t.output.filter((l) => !FRAMING.test(l)).join('');
  if (status === 'passed') return undefined;
  if (t.status === undefined) {
    return cleanMessage('test did not finish (the test binary panicked, timed out or was killed)', own);
  }
  return cleanMessage(own);
}

/** `pkg [pkg.test]` → `pkg`. */
const packageOf = (importPath: string) => importPath.replace(/\s+\[[^\]]*\]$/, '');

const BUILD_FAILED_LINE = /^FAIL\s+(\S+)\s+\[(build|setup) failed\]\s*$/;

/**
 * Packages that did not build, each with what the compiler said, in first-seen order. Plain
 * lines count whatever else the stream holds: before Go 1.24, `go test -json` over several
 * packages writes a broken one's `FAIL <pkg> [build failed]` as plain text among the others'
 * events (and the compiler's `# <pkg>` lines too, when stderr goes to the same file).
 */
function buildFailures(all: GoEvent[], lines: string[]): Map<string, string[]> {
  const failed = new Map<string, string[]>();
  const said = new Map<string, string[]>();
  const note = (pkg: string): string[] => {
    const kept = failed.get(pkg) ?? said.get(pkg) ?? [];
    failed.set(pkg, kept);
    return kept;
  };
  const saying = (pkg: string): string[] => {
    const kept = failed.get(pkg) ?? said.get(pkg) ?? [];
    if (!failed.has(pkg)) said.set(pkg, kept);
    return kept;
  };
  for (const ev of all) {
    const pkg = ev.Package ?? (ev.ImportPath ? packageOf(ev.ImportPath) : undefined);
    if (!pkg || ev.Test) continue;
    if (ev.Action === 'build-output' && ev.Output !== undefined) saying(pkg).push(ev.Output);
    else if (ev.Action === 'build-fail' || (ev.Action === 'fail' && ev.FailedBuild)) note(pkg);
    else if (ev.Action === 'output' && BUILD_FAILED_LINE.test(ev.Output?.trim() ?? '')) note(pkg);
  }
  // With no event at all, go printed only the compiler's errors: every `# pkg` failed.
  const headersFail = all.length === 0;
  let current: string | undefined;
  for (const line of lines) {
    if (line.trim().startsWith('{')) {
      current = undefined;
      continue;
    }
    const header = /^#\s+(\S+)/.exec(line);
    const failedLine = BUILD_FAILED_LINE.exec(line.trim());
    if (header) {
      current = packageOf(header[1]!);
      if (headersFail) note(current);
      else saying(current);
    } else if (failedLine) {
      note(failedLine[1]!);
      current = undefined;
    } else if (current && line.trim() !== '') saying(current).push(`${line}\n`);
  }
  return failed;
}

export function parseGoTestJson(text: string, group: string): TestResult[] {
  const body = readableText(text, 'go test -json');
  const all = events(body);
  const broken = buildFailures(all, body.split(/\r?\n/));
  if (all.length === 0 && broken.size === 0) {
    throw new ResultParseError('no go test -json events found (expected lines like {"Action":"pass",...})');
  }
  // Keyed by package and test; Map keeps first-seen order.
  const tests = new Map<string, Tracked>();
  for (const ev of all) {
    if (!ev.Test) continue;
    const classname = ev.Package ?? '';
    const key = JSON.stringify([classname, ev.Test]);
    const terminal = Object.hasOwn(TERMINAL, ev.Action) ? TERMINAL[ev.Action] : undefined;
    let t = tests.get(key);
    // Only `run` or an outcome makes a test; output alone (benchmarks, examples' chatter) does not.
    if (!t && (ev.Action === 'run' || terminal)) {
      t = { classname, name: ev.Test, output: [] };
      tests.set(key, t);
    }
    if (!t) continue;
    if (ev.Action === 'run') {
      // A new attempt: forget the previous one's outcome and output.
      t.status = undefined;
      t.output = [];
      t.durationMs = undefined;
    } else if (ev.Action === 'output' && ev.Output !== undefined) {
      t.output.push(ev.Output);
    } else if (terminal) {
      t.status = terminal;
      t.durationMs = secondsToMs(ev.Elapsed);
    }
  }
  const raw: RawTest[] = [...tests.values()].map((t) => {
    // Started but never finished: the binary died under it.
    const status = t.status ?? 'failed';
    const msg = message(t, status);
    return {
      classname: t.classname,
      name: t.name,
      status,
      ...(msg === undefined ? {} : { message: msg }),
      ...(t.durationMs === undefined ? {} : { durationMs: t.durationMs }),
    };
  });
  for (const [pkg, output] of broken) {
    const msg = cleanMessage('the package did not build', output.join(''));
    raw.push({ classname: pkg, name: BUILD_FAILURE, status: 'failed', ...(msg ? { message: msg } : {}) });
  }
  return toResults(group, raw);
}
