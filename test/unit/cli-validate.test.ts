import { describe, expect, it } from 'vitest';
import { validationProblems } from '../../src/cli/run/validate.ts';
import { planMatrix } from '../../src/core/matrix-plan.ts';
import type { ConfigurationRun } from '../../src/core/run.schema.ts';
import { API, WEB } from '../helpers/repos.ts';
import { config, errorRun, groupsOf, id, infra, needs, reportFrom, run, simulate } from '../helpers/runs.ts';

const F = id('api', 'creates a user');
const F2 = id('web', 'submits the form');
const P = id('api', 'health');
const groups = [{ name: 'api' }, { name: 'web' }];
const plan = planMatrix([API, WEB], 'full');

/** A gold change: both PRs needed, stable. */
function goldRuns(): ConfigurationRun[] {
  return simulate(plan, (a) => ({ [F]: needs(a, API, WEB), [F2]: needs(a, API, WEB), [P]: 'passed' }));
}

const report = (runs: ConfigurationRun[], reruns = 0) => reportFrom({ plan, runs, groups, reruns });

describe('validationProblems', () => {
  it('a resolved, jointly necessary, stable change has no problems', () => {
    const r = report(goldRuns());
    expect(r.verdict).toMatchObject({ resolved: true, jointlyNecessary: true });
    expect(validationProblems(r)).toEqual([]);
  });

  it('not resolved: says so and lists the failing tests with their kind', () => {
    const runs = simulate(plan, (a) => ({
      [F]: needs(a, API, WEB),
      [F2]: 'failed',
      [P]: a.size === 2 ? 'failed' : 'passed',
    }));
    const problems = validationProblems(report(runs));
    expect(problems[0]).toBe('not resolved: the full configuration fails 2 test(s)');
    expect(problems).toContain(`  F2P ${F2}`);
    expect(problems).toContain(`  P2P ${P}`);
    expect(problems.join('\n')).not.toContain(`F2P ${F}`);
  });

  it('a partial configuration that passes is named, with what it applied', () => {
    const runs = simulate(plan, (a) => ({ [F]: needs(a, API), [F2]: needs(a, API), [P]: 'passed' }));
    const problems = validationProblems(report(runs));
    expect(problems).toEqual([
      `not jointly necessary: configuration "api" (only ${API} applied) already passes`,
    ]);
  });

  it('a base that already passes is named as "no PR applied"', () => {
    const runs = simulate(plan, () => ({ [F]: 'passed', [P]: 'passed' }));
    const problems = validationProblems(reportFrom({ plan, runs, groups, failToPass: [F], passToPass: [P] }));
    expect(problems).toEqual([
      'not jointly necessary: configuration "base" (no PR applied) already passes',
      `not jointly necessary: configuration "api" (only ${API} applied) already passes`,
      `not jointly necessary: configuration "web" (only ${WEB} applied) already passes`,
    ]);
  });

  it('flaky tests across reruns of full are listed with their statuses', () => {
    const rerun = run(config(plan, 'full'), groupsOf({ [F]: 'passed', [F2]: 'failed', [P]: 'passed' }), {
      attempt: 1,
    });
    const problems = validationProblems(report([...goldRuns(), rerun], 1));
    expect(problems).toContain('1 flaky test(s) across 2 runs of full:');
    expect(problems).toContain(`  ${F2}: passed, failed`);
    // The flaky failure also makes full fail.
    expect(problems[0]).toMatch(/^not resolved/);
  });

  it('an infrastructure error in full is reported as such, with its kind and target', () => {
    const e = infra('merge-conflict', 'feature does not merge onto main', { target: WEB });
    const runs = goldRuns().map((r) => (r.applied.includes(WEB) ? errorRun(r, e) : r));
    const problems = validationProblems(report(runs));
    expect(problems[0]).toMatch(
      /^infrastructure error: the full configuration could not be evaluated: feature does not merge/,
    );
    expect(problems).toContain(`  merge-conflict (${WEB}): feature does not merge onto main`);
    expect(problems.join('\n')).not.toMatch(/not resolved/);
  });

  it('an infrastructure error in a partial names the configuration', () => {
    const runs = goldRuns().map((r) =>
      r.id === 'web' ? errorRun(r, infra('engine', 'container vanished')) : r,
    );
    const problems = validationProblems(report(runs));
    expect(problems).toEqual(['configuration "web" has an infrastructure error: container vanished']);
  });

  it('no F2P tests is a problem: the change fixes nothing the suite checks', () => {
    const runs = simulate(plan, () => ({ [P]: 'passed' }));
    const problems = validationProblems(report(runs));
    expect(problems).toContain('no FAIL_TO_PASS tests: the change fixes nothing the suite checks');
  });

  /** The problems when every partial ran as for the gold patch and full hit infrastructure error `kind`. */
  const problemsWhenFullErrs = (kind: Parameters<typeof infra>[0], message: string) =>
    validationProblems(
      report([
        ...goldRuns().filter((r) => r.id !== 'full'),
        errorRun(config(plan, 'full'), infra(kind, message)),
      ]),
    );

  it('an errored full run from a report with failing partials lists only the error', () => {
    const problems = problemsWhenFullErrs('engine', 'no engine');
    expect(problems[0]).toMatch(/^infrastructure error/);
    expect(problems).toContain('  engine: no engine');
  });

  it('an image that does not exist is an invalid suite, naming the field', () => {
    const problems = problemsWhenFullErrs('image-missing', 'no image');
    expect(problems).toEqual(['invalid suite — not a verdict on the code: no image (suite field image)']);
  });
});
