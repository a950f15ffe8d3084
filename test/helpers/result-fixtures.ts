/**
 * The result files under test/fixtures/results (see its README) and what the parser tests expect
 * of them where two fixtures hold the same run: node --test writes the same tests as JUnit and TAP.
 */
import { readFileSync } from 'node:fs';
import type { ConfigurationRun, TestResult, TestStatus } from '../../src/core/run.schema.ts';

/** The text of one result fixture. */
export function resultFile(name: string): string {
  return readFileSync(new URL(`../fixtures/results/${name}`, import.meta.url), 'utf8');
}

/** Each result as [id, status], in order: what a parser made of a whole file. */
export function idsAndStatuses(results: readonly TestResult[]): Array<[string, TestStatus]> {
  return results.map((r) => [r.id, r.status]);
}

/** Results keyed by id. */
export function byId(results: readonly TestResult[]): Map<string, TestResult> {
  return new Map(results.map((r) => [r.id, r]));
}

/** node-source.test.mjs.txt as group `unit`, from node-junit.xml and node-tap.tap alike. */
export const NODE_RUN: Array<[string, TestStatus]> = [
  ['unit::::top level passes', 'passed'],
  ['unit::::top level fails', 'failed'],
  ['unit::Calculator::adds', 'passed'],
  ['unit::Calculator::divides <by> "zero" & more', 'failed'],
  ['unit::Calculator::skipped one', 'skipped'],
  ['unit::Calculator::todo one', 'skipped'],
  ['unit::Calculator > nested group::deep pass', 'passed'],
  ['unit::Calculator > nested group::deep fail', 'failed'],
  ['unit::Calculator::adds #2', 'passed'],
  ['unit::with subtests::sub a', 'passed'],
  ['unit::with subtests::sub b', 'failed'],
];

/**
 * node-edge-source.test.mjs.txt as group `unit`, from node-junit-edge.xml and node-tap-edge.tap
 * alike: children of a failing hook fail, a throwing describe body is a failed test.
 */
export const NODE_EDGE_RUN: Array<[string, TestStatus]> = [
  ['unit::hook fails::child one', 'failed'],
  ['unit::hook fails::child two', 'failed'],
  ['unit::::callback throws', 'failed'],
  ['unit::::empty suite', 'passed'],
  ['unit::::after empty', 'passed'],
];

/** A configuration's run with one group of `tests` (their ids as given): the bench tests' input. */
export function configurationRun(
  id: string,
  applied: string[],
  tests: Array<[string, TestStatus]>,
  opts: { group?: string; repo?: string; attempt?: number } = {},
): ConfigurationRun {
  return {
    id,
    applied,
    attempt: opts.attempt ?? 0,
    setup: [],
    groups: [
      {
        name: opts.group ?? 'unit',
        ...(opts.repo ? { repo: opts.repo } : {}),
        status: 'reported',
        exitCode: 0,
        durationMs: 1,
        tests: tests.map(([t, status]) => ({ id: t, status })),
      },
    ],
    cached: false,
    durationMs: 1,
  };
}

/** SWE-bench's `tests_status` with every list empty. */
export function emptyTestsStatus() {
  return {
    FAIL_TO_PASS: { success: [], failure: [] },
    PASS_TO_PASS: { success: [], failure: [] },
    FAIL_TO_FAIL: { success: [], failure: [] },
    PASS_TO_FAIL: { success: [], failure: [] },
  };
}
