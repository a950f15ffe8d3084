import type { GradedStatus } from './grade.schema.ts';
import type { ConfigurationRun, GroupRun, TestResult } from './run.schema.ts';
import {
  groupOfTestId,
  heldBySyntheticFailure,
  isSyntheticFailure,
  syntheticFailureLabel,
} from './test-id.ts';

export interface Observation {
  status: GradedStatus;
  reason?: string;
}

/** Why a group that did not report failed as a whole. */
export function groupFailureReason(g: GroupRun): string {
  if (g.reason) return g.reason;
  switch (g.status) {
    case 'timeout':
      return `test group "${g.name}" timed out`;
    case 'oom':
      return `test group "${g.name}" was killed for exceeding its memory limit`;
    case 'setup-failed':
      return 'a setup step failed, so the group did not run';
    case 'not-run':
      return 'the configuration stopped before this group ran';
    case 'broken':
      return `test group "${g.name}" ran no test and exited ${g.exitCode ?? 'by a signal'}`;
    default:
      return `test group "${g.name}" ended (exit ${g.exitCode ?? 'none'}) without writing its result file`;
  }
}

/**
 * What one run says about the expected tests. A test the run did not report is `missing`;
 * when its group failed as a whole, the group's reason explains it.
 */
export function observe(run: ConfigurationRun, expected: readonly string[]): Map<string, Observation> {
  const seen = new Map<string, Observation>();
  const groupReasons = new Map<string, string>();
  const synthetic: TestResult[] = [];
  for (const g of run.groups) {
    if (g.status !== 'reported') groupReasons.set(g.name, groupFailureReason(g));
    for (const t of g.tests) {
      seen.set(t.id, { status: t.status, reason: t.message });
      if (isSyntheticFailure(t.id)) synthetic.push(t);
    }
  }
  // A missing test whose package, file or module did not build, load or collect: that is why.
  const heldBy = (id: string) => {
    const s = synthetic.find((x) => heldBySyntheticFailure(x.id, id));
    return s && [syntheticFailureLabel(s.id), s.message].filter(Boolean).join(': ');
  };
  const out = new Map<string, Observation>();
  for (const id of expected) {
    const o = seen.get(id);
    if (o) out.set(id, o);
    else {
      const reason = groupReasons.get(groupOfTestId(id)) ?? heldBy(id) ?? 'not reported by its test group';
      out.set(id, { status: 'missing', reason });
    }
  }
  return out;
}

/** Every test id the runs reported (synthetic failures aside); of the all-base run: the candidates without suite lists. */
export function allSeenTests(runs: readonly ConfigurationRun[]): string[] {
  const ids = new Set<string>();
  for (const r of runs)
    for (const g of r.groups) for (const t of g.tests) if (!isSyntheticFailure(t.id)) ids.add(t.id);
  return [...ids].sort();
}

/**
 * A few ids the runs did report, for a message about listed ids none reported (the CLI's
 * terminal only). The all-base run's come first: it runs no PR code, so its names are not the
 * PR's invention; other runs only when it reported none.
 */
export function reportedExamples(runs: readonly ConfigurationRun[], count = 2): string[] {
  const base = runs.filter((r) => r.applied.length === 0);
  const fromBase = allSeenTests(base);
  return (fromBase.length > 0 ? fromBase : allSeenTests(runs)).slice(0, count);
}

/**
 * Several runs of one configuration combine conservatively: a test that did not pass in every
 * run fails; its status is the first non-passing one. Returns the combined view and the tests
 * whose status differed between runs.
 */
export function combineRuns(perRun: ReadonlyArray<Map<string, Observation>>): {
  combined: Map<string, Observation>;
  flaky: Array<{ id: string; statuses: string[] }>;
} {
  const combined = new Map<string, Observation>();
  const flaky: Array<{ id: string; statuses: string[] }> = [];
  const first = perRun[0];
  if (!first) return { combined, flaky };
  for (const id of first.keys()) {
    const obs = perRun.map((m) => m.get(id) ?? { status: 'missing' as const });
    const bad = obs.find((o) => o.status !== 'passed');
    combined.set(id, bad ?? obs[0]!);
    const statuses = obs.map((o) => o.status);
    if (new Set(statuses).size > 1) flaky.push({ id, statuses });
  }
  return { combined, flaky };
}
