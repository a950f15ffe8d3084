/**
 * What the grading tests hand `gradeCandidate` (the code `bench run`, `bench regrade` and `bench
 * validate` grade with): the few report fields it reads, a suite of `jest --json` groups over one
 * repository, and a configuration's run whose groups reported given tests.
 */
import type { DatasetNames } from '../../src/core/dataset-names.ts';
import type { Report } from '../../src/core/report.schema.ts';
import type { ConfigurationRun, TestResult } from '../../src/core/run.schema.ts';
import { type Suite, suiteSchema } from '../../src/core/suite.schema.ts';

/** The report fields grading reads: `repo` the one target, the full matrix, no infrastructure errors. */
export function gradingReport(repo: string): Report {
  return { targets: [{ repo }], matrix: { requested: 'full' }, infraErrors: [] } as unknown as Report;
}

/** A suite named `name` with one `jest --json` group per name in `groups`, on `repo`, read in `form`. */
export function jestGroupsSuite(repo: string, groups: string[], form: DatasetNames, name = 's'): Suite {
  return suiteSchema.parse({
    name,
    image: 'tandem/sandbox:node20',
    tests: groups.map((group) => ({
      name: group,
      repo,
      run: 'true',
      results: { format: 'jest-json', path: `${group}.json` },
      dataset_names: form,
    })),
  });
}

export interface ReportedGroup {
  name: string;
  tests: TestResult[];
  /** The group's exit code (0 unless a test failed and the test says so). */
  exitCode?: number;
}

/** Configuration `id` of `repo` (`full` has the candidate applied): each group ran and reported its tests. */
export function reportedRun(
  repo: string,
  id: 'base' | 'full',
  groups: ReportedGroup[],
  attempt = 0,
): ConfigurationRun {
  return {
    id,
    applied: id === 'base' ? [] : [repo],
    attempt,
    setup: [],
    groups: groups.map((g) => ({
      name: g.name,
      repo,
      status: 'reported' as const,
      exitCode: g.exitCode ?? 0,
      durationMs: 1,
      tests: g.tests,
    })),
    cached: false,
    durationMs: 1,
  };
}
