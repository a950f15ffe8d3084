/**
 * The tests as readers see them, and what `reveal` lets through: failing expected tests (P2P
 * regressions first, capped), their messages under `messages`, test groups that did not report
 * (described from their status only), F2P/P2P counts, and an invalid suite's unmatched ids.
 * Names never reach a view under `counts`.
 */
import type { GradedConfiguration } from '../core/grade.schema.ts';
import type { Report } from '../core/report.schema.ts';
import { groupOfTestId } from '../core/test-id.ts';
import type { ReportView, Reveal, ViewOptions } from './report-view-model.ts';

/** At most this many failing tests are named; the rest are counted ("and N more"). */
export const MAX_FAILING_LISTED = 50;
/** With `reveal: messages`: lines of each failure message shown, and their width. */
export const MESSAGE_LINES = 3;
const MESSAGE_WIDTH = 160;

/** Unmatched ids an invalid suite's verdict names (with `reveal` past `counts`). */
const INVALID_IDS_NAMED = 5;

/** `api::::name` (node's JUnit reporter has no class) reads `name`; `api::Users::adds` → `Users › adds`. */
export function readableTestName(id: string): { group: string; name: string } {
  const group = groupOfTestId(id);
  const rest = id.length > group.length ? id.slice(group.length + 2) : id;
  const sep = rest.indexOf('::');
  if (sep < 0) return { group, name: rest };
  const cls = rest.slice(0, sep).trim();
  const name = rest.slice(sep + 2).trim();
  return { group, name: cls ? `${cls} › ${name}` : name };
}

function messageLines(reason: string | undefined): string[] {
  return (reason ?? '')
    .split(/\r?\n/)
    .map((l) => l.trimEnd())
    .filter((l) => l.trim() !== '')
    .slice(0, MESSAGE_LINES)
    .map((l) => (l.length > MESSAGE_WIDTH ? `${l.slice(0, MESSAGE_WIDTH - 1)}…` : l));
}

export function failing(
  full: GradedConfiguration | undefined,
  reveal: Reveal,
): Pick<ReportView, 'failing' | 'failingCount' | 'failingMore'> {
  const bad = (full?.tests ?? []).filter((t) => t.status !== 'passed');
  // P2P regressions first: they say what the change broke, and a cap must never hide them all.
  const listed = [...bad].sort((a, b) => (a.kind === b.kind ? 0 : a.kind === 'P2P' ? -1 : 1));
  return {
    failing: listed.slice(0, MAX_FAILING_LISTED).map((t) => ({
      ...readableTestName(t.id),
      kind: t.kind,
      status: t.status,
      message: reveal === 'messages' ? messageLines(t.reason) : [],
    })),
    failingCount: bad.length,
    failingMore: Math.max(0, bad.length - MAX_FAILING_LISTED),
  };
}

/** Described from the group's status and exit code only: engine reasons may quote test output. */
export function brokenGroups(full: GradedConfiguration | undefined): ReportView['brokenGroups'] {
  const describe: Record<string, string> = {
    crashed: 'ended without a usable result file',
    timeout: 'timed out',
    oom: 'was killed for exceeding its memory limit',
    'setup-failed': 'did not run: a setup step failed',
    'not-run': 'did not run: the configuration stopped first',
    broken: 'ran no test: its tests did not build, collect or load',
  };
  return (full?.groups ?? [])
    .filter((g) => g.status !== 'reported')
    .map((g) => ({
      name: g.name,
      status: g.status,
      detail: `${describe[g.status] ?? g.status}${g.exitCode !== null ? ` (exit ${g.exitCode})` : ''}`,
    }));
}

/** An invalid suite: its message and fields, and the unmatched ids when names may be shown. */
export function invalidSuiteView(report: Report, options: ViewOptions): Pick<ReportView, 'invalidSuite'> {
  const invalid = report.invalidSuite;
  if (!invalid) return {};
  const names = options.reveal !== 'counts';
  const ids = names ? invalid.unmatched.slice(0, INVALID_IDS_NAMED) : [];
  return {
    invalidSuite: {
      message: invalid.message,
      fields: invalid.fields,
      ...(options.suitePath ? { suitePath: options.suitePath } : {}),
      ids,
      count: invalid.unmatched.length,
      more: names ? invalid.unmatched.length - ids.length : 0,
    },
  };
}

/** F2P and P2P counts of the full configuration, and where the lists came from. */
export function testCountsView(
  report: Report,
  full: Report['configurations'][number] | undefined,
): Pick<ReportView, 'f2p' | 'p2p' | 'listsSource' | 'ignored' | 'seenOnlyWithPr'> {
  const f2p = full?.f2p ?? { passed: 0, total: report.tests.failToPass.length };
  const p2p = full?.p2p ?? { passed: 0, total: report.tests.passToPass.length };
  const src = report.tests.source;
  return {
    f2p: { ...f2p, failing: f2p.total - f2p.passed },
    p2p: { ...p2p, failing: p2p.total - p2p.passed },
    listsSource:
      src.failToPass === 'suite' && src.passToPass === 'suite'
        ? 'F2P/P2P lists from the suite'
        : 'F2P/P2P classified by the all-base run (failing on base → F2P, passing → P2P)',
    ignored: report.tests.ignored.length,
    seenOnlyWithPr: report.tests.seenOnlyWithPr,
  };
}
