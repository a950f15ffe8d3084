/**
 * Grades one candidate's raw runs the way benchmark mode reads them: test ids mapped into the
 * dataset's names (the suite's `tests[].dataset_names`), the instance's published lists matched
 * in that form, SWE-bench's `tests_status` in the dataset's own names, each of `--attempts K`
 * graded on its own, and the tests that differ between configurations holding the same state of
 * their repository. The same code grades a fresh run and `tandem bench regrade`, so a regrade
 * with the same inputs gives the same report.
 */
import {
  datasetNameOf,
  mapRunsToDatasetNames,
  type NamedGroup,
  qualifyLists,
  unreportedNamesMessage,
} from '../core/dataset-names.ts';
import { grade } from '../core/grading.ts';
import { matrixFlaky } from '../core/matrix-flaky.ts';
import { planMatrix } from '../core/matrix-plan.ts';
import type { Report } from '../core/report.schema.ts';
import type { ConfigurationRun } from '../core/run.schema.ts';
import type { Suite } from '../core/suite.schema.ts';
import type { LoadedInstance } from './instances-file.ts';

export interface BenchGrade {
  report: Report;
  /** Per attempt (`--attempts K`), whether it resolved; one entry without attempts. */
  attemptsResolved: boolean[];
  /** Listed names never reported, with two of each side: see dataset-names.ts. */
  namesWarning?: string;
  /** Tests whose status differs between configurations that hold their repository's same state. */
  flaky: Array<{ id: string; statuses: string[]; configurations: string[] }>;
}

export interface GradeArgs {
  /** The engine's report of the candidate (targets, matrix, suite, …); its grade is replaced. */
  report: Report;
  runs: ConfigurationRun[];
  suite: Suite;
  lists: { failToPass?: string[]; passToPass?: string[] };
  attempts: number;
}

/** The instance's lists, else the suite's. */
export function instanceLists(loaded: LoadedInstance): { failToPass?: string[]; passToPass?: string[] } {
  const f2p = loaded.instance.FAIL_TO_PASS ?? loaded.suite.fail_to_pass;
  const p2p = loaded.instance.PASS_TO_PASS ?? loaded.suite.pass_to_pass;
  return { ...(f2p ? { failToPass: f2p } : {}), ...(p2p ? { passToPass: p2p } : {}) };
}

export function namedGroups(suite: Suite): NamedGroup[] {
  return suite.tests.map((g) => ({
    name: g.name,
    ...(g.repo ? { repo: g.repo } : {}),
    ...(g.dataset_names ? { dataset_names: g.dataset_names } : {}),
  }));
}

export function gradeCandidate(args: GradeArgs): BenchGrade {
  const groups = namedGroups(args.suite);
  const runs = mapRunsToDatasetNames(args.runs, groups);
  const plan = planMatrix(
    args.report.targets.map((t) => t.repo),
    args.report.matrix.requested,
  );
  const given = args.lists.failToPass && args.lists.passToPass ? args.lists : undefined;
  const q = given
    ? qualifyLists({ failToPass: given.failToPass!, passToPass: given.passToPass! }, runs, groups)
    : undefined;
  const gradeOn = (only: ConfigurationRun[]) =>
    grade({
      plan,
      runs: only,
      groups: groups.map((g) => ({ name: g.name, ...(g.repo ? { repo: g.repo } : {}) })),
      ...(q ? { failToPass: q.failToPass, passToPass: q.passToPass } : {}),
      ...(args.lists.failToPass && !q ? { failToPass: args.lists.failToPass } : {}),
      ...(args.lists.passToPass && !q ? { passToPass: args.lists.passToPass } : {}),
      infraErrors: args.report.infraErrors.filter((e) => !e.configuration),
    });
  // Attempt j: the full configuration's j-th run with every other configuration's first.
  const attempt = (j: number) =>
    runs
      .filter((r) => (r.id === 'full' ? r.attempt === j : r.attempt === 0))
      .map((r) => (r.id === 'full' ? { ...r, attempt: 0 } : r));
  const first = gradeOn(args.attempts > 1 ? attempt(0) : runs);
  const attemptsResolved =
    args.attempts > 1
      ? Array.from({ length: args.attempts }, (_, j) => (j === 0 ? first : gradeOn(attempt(j))).resolved)
      : [first.resolved];
  // Several groups reporting one name agree on it (shared-dataset-names.ts): the name once.
  const published = (ids: string[]) => [...new Set(ids.map((id) => datasetNameOf(id, groups)))];
  const status = first.tests_status;
  const tests_status = Object.fromEntries(
    Object.entries(status).map(([k, v]) => [
      k,
      { success: published(v.success), failure: published(v.failure) },
    ]),
  ) as typeof status;
  const namesWarning = q ? unreportedNamesMessage(q, runs, groups) : undefined;
  return {
    report: { ...args.report, ...first, tests_status },
    attemptsResolved,
    ...(namesWarning ? { namesWarning } : {}),
    flaky: matrixFlaky(runs, groups, plan.targets, args.suite.wiring),
  };
}
