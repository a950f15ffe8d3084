/**
 * The phases `grade` is made of (src/core/grading.ts), each on its own: configurations graded
 * with infrastructure errors once each, the verdict from graded configurations, the summary
 * line, and SWE-bench's `tests_status`.
 */
import { describe, expect, it } from 'vitest';
import type { TestLists } from '../../src/core/expected-tests.ts';
import { grade, gradeConfigurations, judgeVerdict, summaryOf, testsStatus } from '../../src/core/grading.ts';
import { planMatrix } from '../../src/core/matrix-plan.ts';
import { API, WEB } from '../helpers/repos.ts';
import { errorRun, id, infra, needs, simulate } from '../helpers/runs.ts';

const F = id('api', 'creates a user');
const P = id('api', 'health responds ok');
const plan = planMatrix([API, WEB], 'full');
const lists: TestLists = {
  f2p: [F],
  p2p: [P],
  source: { failToPass: 'suite', passToPass: 'suite' },
  ignored: [],
  seenOnlyWithPr: 0,
};
const joint = simulate(plan, (a) => ({ [F]: needs(a, API, WEB), [P]: 'passed' }));
const runsOf = (runs: typeof joint) => (cid: string) => runs.filter((r) => r.id === cid);
const input = { plan, runs: joint, groups: [{ name: 'api', repo: API }], failToPass: [F], passToPass: [P] };

describe('grading phases', () => {
  it('gradeConfigurations: every run graded; a shared infrastructure error listed once', () => {
    const broken = infra('fetch', 'web could not be cloned', { target: WEB });
    const runs = joint.map((r) => (r.id === 'web' || r.id === 'full' ? errorRun(r, broken) : r));
    const g = gradeConfigurations(plan, runsOf(runs), lists, []);
    expect(g.configurations.map((c) => c.id)).toEqual(plan.configurations.map((c) => c.id));
    expect(g.infraErrors).toHaveLength(1);
    // Tests that cannot be classified: every configuration is an error.
    const unlisted = gradeConfigurations(plan, runsOf(joint), 'no lists', []);
    expect(unlisted.configurations.every((c) => c.outcome === 'error')).toBe(true);
  });

  it('judgeVerdict: resolved and jointly necessary when only full passes; nothing without a judged full', () => {
    const { configurations } = gradeConfigurations(plan, runsOf(joint), lists, []);
    const full = configurations.find((c) => c.role === 'full');
    expect(judgeVerdict(plan, configurations, full, false)).toMatchObject({
      resolved: true,
      jointlyNecessary: true,
      unnecessary: [],
      fixRate: 1,
    });
    expect(judgeVerdict(plan, configurations, undefined, false)).toMatchObject({
      resolved: false,
      jointlyNecessary: null,
      fixRate: 0,
    });
  });

  it('summaryOf: the cause first when the tests cannot be classified; `complete` otherwise', () => {
    const cause = infra('fetch', 'api could not be cloned');
    expect(summaryOf('no base run', cause, undefined, 1)).toBe('api could not be cloned; no base run');
    expect(summaryOf(lists, undefined, undefined, 0)).toBe('the full configuration was not run');
    const full = grade(input).configurations.find((c) => c.role === 'full');
    expect(summaryOf(lists, undefined, full, 0)).toBe('complete');
    expect(summaryOf(lists, undefined, full, 2)).toMatch(/^2 infrastructure error\(s\)/);
  });

  it('testsStatus: listed tests the judged full configuration passed, the rest failures', () => {
    const full = grade(input).configurations.find((c) => c.role === 'full');
    const usable = lists;
    expect(testsStatus(full, usable).FAIL_TO_PASS).toEqual({ success: [F], failure: [] });
    expect(testsStatus(undefined, usable).PASS_TO_PASS).toEqual({ success: [], failure: [P] });
  });
});
