/**
 * Grading: raw configuration runs → outcomes and the verdict, exactly as docs/design.md defines them.
 * Pure: the engine, `tandem merge` and tests all grade through here.
 */

import { classifyTests, type TestLists } from './expected-tests.ts';
import type {
  ConfigurationOutcome,
  Grade,
  GradedConfiguration,
  GradedTest,
  RepoMetrics,
} from './grade.schema.ts';
import { INVALID_SUITE } from './infra-wording.ts';
import type { MatrixPlan, PlannedConfiguration } from './matrix-plan.ts';
import { withoutTarget } from './matrix-plan.ts';
import { combineRuns, type Observation, observe } from './observed-tests.ts';
import type { ConfigurationRun, InfraErrorInfo } from './run.schema.ts';
import { suiteMistake } from './suite-mistakes.ts';
import { groupOfTestId } from './test-id.ts';

export interface GradingInput {
  plan: MatrixPlan;
  /** Every run, reruns of full included (attempt > 0). Configurations not run are absent. */
  runs: ConfigurationRun[];
  failToPass?: string[];
  passToPass?: string[];
  /** Test groups with the repository they test, for per-repository metrics. */
  groups: Array<{ name: string; repo?: string }>;
  /** Infrastructure errors outside any configuration (a target whose state failed). */
  infraErrors?: InfraErrorInfo[];
}

const passes = (o: Observation | undefined) => o?.status === 'passed';

type Lists = TestLists;

const EMPTY_LISTS: Lists = {
  f2p: [],
  p2p: [],
  ignored: [],
  source: { failToPass: 'suite', passToPass: 'suite' },
  seenOnlyWithPr: 0,
};

function gradeConfiguration(
  planned: PlannedConfiguration,
  runs: ConfigurationRun[],
  lists: Lists,
): { graded: GradedConfiguration; flaky: Array<{ id: string; statuses: string[] }> } {
  const expected = [...lists.f2p, ...lists.p2p];
  const f2pSet = new Set(lists.f2p);
  const error = runs.find((r) => r.infraError)?.infraError;
  const { combined, flaky } = combineRuns(runs.map((r) => observe(r, expected)));
  const tests: GradedTest[] = expected.map((id) => {
    const o = combined.get(id)!;
    return {
      id,
      kind: f2pSet.has(id) ? 'F2P' : 'P2P',
      status: o.status,
      ...(o.reason ? { reason: o.reason } : {}),
    };
  });
  const count = (ids: string[]) => ({
    passed: ids.filter((id) => passes(combined.get(id))).length,
    total: ids.length,
  });
  const f2p = count(lists.f2p);
  const p2p = count(lists.p2p);
  // A group that never reported (or ran no test) fails as a whole, even when no run saw its tests.
  const groupsReported = runs.every((r) => r.groups.every((g) => g.status === 'reported'));
  const allPass = f2p.passed === f2p.total && p2p.passed === p2p.total && groupsReported;
  const outcome: ConfigurationOutcome = error ? 'error' : allPass ? 'pass' : 'fail';
  const first = runs[0]!;
  return {
    graded: {
      id: planned.id,
      applied: planned.applied,
      role: planned.role,
      outcome,
      passed: f2p.passed + p2p.passed,
      total: expected.length,
      f2p,
      p2p,
      cached: runs.every((r) => r.cached),
      runs: runs.length,
      durationMs: runs.reduce((s, r) => s + r.durationMs, 0),
      tests: error ? [] : tests,
      groups: first.groups.map((g) => ({
        name: g.name,
        ...(g.repo ? { repo: g.repo } : {}),
        status: g.status,
        exitCode: g.exitCode,
        durationMs: g.durationMs,
        ...(g.reason ? { reason: g.reason } : {}),
        ...(g.failedExitAllPassed ? { failedExitAllPassed: true } : {}),
      })),
      ...(error ? { error } : {}),
    },
    flaky: runs.length > 1 ? flaky : [],
  };
}

function repoMetrics(full: GradedConfiguration | undefined, groups: GradingInput['groups']): RepoMetrics[] {
  const out: RepoMetrics[] = [];
  const repos = [...new Set(groups.flatMap((g) => (g.repo ? [g.repo] : [])))];
  for (const repo of repos) {
    const names = new Set(groups.filter((g) => g.repo === repo).map((g) => g.name));
    const mine = (full?.tests ?? []).filter((t) => names.has(groupOfTestId(t.id)));
    const tally = (kind: 'F2P' | 'P2P') => {
      const ts = mine.filter((t) => t.kind === kind);
      return { passed: ts.filter((t) => t.status === 'passed').length, total: ts.length };
    };
    const f2p = tally('F2P');
    const p2p = tally('P2P');
    const reported = (full?.groups ?? []).every((g) => !names.has(g.name) || g.status === 'reported');
    const ok = full !== undefined && full.outcome !== 'error' && reported;
    const f2pComplete = ok && f2p.passed === f2p.total;
    const p2pPreserved = ok && p2p.passed === p2p.total;
    out.push({ repo, f2p, p2p, f2pComplete, p2pPreserved, success: f2pComplete && p2pPreserved });
  }
  return out;
}

type RunsOf = (id: string) => ConfigurationRun[];

export function grade(input: GradingInput): Grade {
  const { plan } = input;
  const runsOf: RunsOf = (id) => input.runs.filter((r) => r.id === id).sort((a, b) => a.attempt - b.attempt);
  const base = plan.configurations.find((c) => c.role === 'base');
  const fullPlanned = plan.configurations.find((c) => c.role === 'full');
  const lists = classifyTests(
    input,
    base ? runsOf(base.id)[0] : undefined,
    fullPlanned ? runsOf(fullPlanned.id)[0] : undefined,
  );
  const usable = typeof lists === 'string' ? EMPTY_LISTS : lists;
  const { configurations, flaky, infraErrors } = gradeConfigurations(
    plan,
    runsOf,
    lists,
    input.infraErrors ?? [],
  );
  // The evaluator's mistake is never a verdict on the code: no outcome but `error`, said so.
  const invalidSuite = suiteMistake({
    configurations: plan.configurations,
    runsOf,
    failToPass: usable.source.failToPass === 'suite' ? input.failToPass : undefined,
    passToPass: usable.source.passToPass === 'suite' ? input.passToPass : undefined,
    infraErrors,
  });
  const full = configurations.find((c) => c.role === 'full');
  const fullOk = full !== undefined && full.outcome !== 'error' && typeof lists !== 'string' && !invalidSuite;
  const verdict = judgeVerdict(plan, configurations, fullOk ? full : undefined, invalidSuite !== undefined);
  // Without lists, the cause (a clone that failed, say) comes first: it is what the reader acts on.
  const cause = (base ? runsOf(base.id)[0]?.infraError : undefined) ?? infraErrors[0];
  const summary = invalidSuite
    ? `${INVALID_SUITE}: ${invalidSuite.message}`
    : summaryOf(lists, cause, full, infraErrors.length);
  return {
    outcome: fullOk ? (verdict.resolved ? 'resolved' : 'unresolved') : 'error',
    ...(invalidSuite ? { invalidSuite } : {}),
    summary,
    verdict,
    tests: {
      failToPass: usable.f2p,
      passToPass: usable.p2p,
      source: usable.source,
      ignored: usable.ignored,
      seenOnlyWithPr: usable.seenOnlyWithPr,
    },
    configurations,
    repositories: repoMetrics(fullOk ? full : undefined, input.groups),
    flaky,
    infraErrors,
    patch_successfully_applied: !infraErrors.some(
      (e) => e.kind === 'patch-failed' || e.kind === 'merge-conflict',
    ),
    resolved: verdict.resolved,
    tests_status: testsStatus(fullOk ? full : undefined, usable),
  };
}

/**
 * Each planned configuration that ran, graded (all `error` when the tests cannot be classified),
 * the full configuration's flaky tests, and the infrastructure errors: those given plus each
 * run's, once each (one failing state shows in every configuration that uses it).
 */
export function gradeConfigurations(
  plan: MatrixPlan,
  runsOf: RunsOf,
  lists: Lists | string,
  given: readonly InfraErrorInfo[],
): { configurations: GradedConfiguration[]; flaky: Grade['flaky']; infraErrors: InfraErrorInfo[] } {
  const usable = typeof lists === 'string' ? EMPTY_LISTS : lists;
  const infraErrors = [...given];
  const configurations: GradedConfiguration[] = [];
  let flaky: Grade['flaky'] = [];
  for (const planned of plan.configurations) {
    const runs = runsOf(planned.id);
    if (runs.length === 0) continue;
    const g = gradeConfiguration(planned, runs, usable);
    if (typeof lists === 'string' && !g.graded.error) g.graded.outcome = 'error';
    configurations.push(g.graded);
    if (planned.role === 'full') flaky = g.flaky;
    for (const r of runs) {
      const e = r.infraError;
      if (
        e &&
        !infraErrors.some((x) => x.kind === e.kind && x.message === e.message && x.target === e.target)
      )
        infraErrors.push(e);
    }
  }
  return { configurations, flaky, infraErrors };
}

/**
 * The verdict from the graded configurations; `full` only when it was judged (no error, lists
 * known, a valid suite). Joint necessity needs every other configuration judged.
 */
export function judgeVerdict(
  plan: MatrixPlan,
  configurations: readonly GradedConfiguration[],
  full: GradedConfiguration | undefined,
  invalidSuite: boolean,
): Grade['verdict'] {
  const byId = new Map(configurations.map((c) => [c.id, c]));
  const resolved = full !== undefined && full.outcome === 'pass';
  const others = plan.configurations.filter((c) => c.role !== 'full').map((c) => byId.get(c.id));
  const jointlyNecessary =
    !full || others.some((c) => c === undefined || c.outcome === 'error')
      ? null
      : full.outcome === 'pass' && others.every((c) => c!.outcome === 'fail');
  // Only a configuration that really ran tests and passed them shows a target can go: one that
  // was judged on nothing (its tests did not build, or none was expected) shows nothing.
  const unnecessary = plan.targets.filter((t) => {
    if (invalidSuite) return false;
    const c = withoutTarget(plan, t);
    const graded = c === undefined ? undefined : byId.get(c.id);
    return graded?.outcome === 'pass' && graded.passed > 0;
  });
  const fixRate =
    !full || full.p2p.passed < full.p2p.total
      ? 0
      : full.f2p.total === 0
        ? 1
        : full.f2p.passed / full.f2p.total;
  return { resolved, jointlyNecessary, jointlyNecessaryBasis: plan.mode, unnecessary, fixRate };
}

/** The report's one-line summary when the suite is valid: why it has no verdict, or `complete`. */
export function summaryOf(
  lists: Lists | string,
  cause: InfraErrorInfo | undefined,
  full: GradedConfiguration | undefined,
  infraErrorCount: number,
): string {
  if (typeof lists === 'string') return cause ? `${cause.message}; ${lists}` : lists;
  if (!full) return 'the full configuration was not run';
  if (full.error) return `the full configuration could not be evaluated: ${full.error.message}`;
  if (infraErrorCount > 0)
    return `${infraErrorCount} infrastructure error(s); configurations without a result are not judged`;
  return 'complete';
}

/** SWE-bench's `tests_status`: which listed F2P and P2P tests the judged full configuration passed. */
export function testsStatus(full: GradedConfiguration | undefined, usable: Lists): Grade['tests_status'] {
  const split = (kind: 'F2P' | 'P2P') => {
    const ts = (full ? full.tests : []).filter((t) => t.kind === kind);
    const ids = (kind === 'F2P' ? usable.f2p : usable.p2p).slice();
    const success = ts.filter((t) => t.status === 'passed').map((t) => t.id);
    const ok = new Set(success);
    return { success, failure: ids.filter((id) => !ok.has(id)) };
  };
  return {
    FAIL_TO_PASS: split('F2P'),
    PASS_TO_PASS: split('P2P'),
    FAIL_TO_FAIL: { success: [], failure: [] },
    PASS_TO_FAIL: { success: [], failure: [] },
  };
}

/**
 * One run judged exactly as `grade` judges its configuration (outcome and passed/total), for
 * progress events: `lists` is what `classifyTests` gave, a reason string when tests cannot be
 * classified (then, as in the report, the outcome is `error`).
 */
export function judgeRun(
  run: ConfigurationRun,
  lists: TestLists | string,
): Pick<GradedConfiguration, 'outcome' | 'passed' | 'total'> {
  const usable = typeof lists === 'string' ? EMPTY_LISTS : lists;
  const planned: PlannedConfiguration = { id: run.id, applied: run.applied, role: 'partial' };
  const { graded } = gradeConfiguration(planned, [run], usable);
  const outcome = typeof lists === 'string' ? 'error' : graded.outcome;
  return { outcome, passed: graded.passed, total: graded.total };
}
