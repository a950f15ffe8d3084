/**
 * Issue 31: a test group whose tests did not build, collect or load at base fails base; the tests
 * the full configuration then runs are F2P (not "seen only with the PR"), while tests the PR
 * invents where base built and ran stay unjudged; a target is unnecessary only when the
 * configuration without it really ran tests and passed them.
 */
import { describe, expect, it } from 'vitest';
import { type Grade, gradeSchema } from '../../src/core/grade.schema.ts';
import { type GradingInput, grade } from '../../src/core/grading.ts';
import { planMatrix } from '../../src/core/matrix-plan.ts';
import type { GroupRun } from '../../src/core/run.schema.ts';
import {
  BUILD_FAILURE,
  COLLECTION_FAILURE,
  FILE_LOAD_FAILURE,
  heldBySyntheticFailure,
  INCOMPLETE_STREAM,
  testId,
} from '../../src/core/test-id.ts';
import { brokenGroupReason } from '../../src/core/unrunnable-tests.ts';
import { runProgress } from '../../src/engine/pipeline/run-progress.ts';
import { API, WEB } from '../helpers/repos.ts';
import { config, reportedGroup, run, simulate } from '../helpers/runs.ts';

function gradeOf(input: GradingInput): Grade {
  const g = grade(input);
  expect(gradeSchema.safeParse(g).success).toBe(true);
  return g;
}

const BUILD = testId('go', 'x/lib', BUILD_FAILURE);
const NEW = testId('go', 'x/lib', 'TestNew');
const OLD = testId('go', 'x/util', 'TestOld');

/** What the engine makes of a group that ran no test and exited non-zero (collect-results.ts). */
function brokenGroup(name: string, synthetic: string[], exitCode = 2): GroupRun {
  const tests = synthetic.map((id) => ({ id, status: 'failed' as const, message: 'undefined: New' }));
  return {
    name,
    status: 'broken',
    exitCode,
    durationMs: 100,
    reason: brokenGroupReason(tests, exitCode)!,
    tests,
  };
}

const outcomes = (g: Grade) => Object.fromEntries(g.configurations.map((c) => [c.id, c.outcome]));

describe('a group that ran no test', () => {
  it('fails as a whole with the reason its runner gave, only when it exited non-zero', () => {
    const failed = (id: string) => ({ id, status: 'failed' as const });
    expect(brokenGroupReason([failed(BUILD)], 2)).toBe(
      'build failed (x/lib): no test ran, and the group exited 2',
    );
    expect(brokenGroupReason([failed(testId('py', 'tests.test_x', COLLECTION_FAILURE))], 2)).toMatch(
      /^collection error \(tests\.test_x\)/,
    );
    expect(brokenGroupReason([failed(testId('js', 'a.test.js', FILE_LOAD_FAILURE))], 1)).toMatch(
      /^file failed to load \(a\.test\.js\)/,
    );
    expect(brokenGroupReason([failed(testId('tap', '', INCOMPLETE_STREAM))], 1)).toBe(
      'stream ended without a plan: no test ran, and the group exited 1',
    );
    expect(brokenGroupReason([], 5)).toBe('reported no test result and exited 5');
    expect(brokenGroupReason([], 0)).toBeUndefined();
    expect(brokenGroupReason([failed(BUILD), { id: OLD, status: 'passed' }], 2)).toBeUndefined();
  });

  it('a synthetic failure holds the tests of its package, file or module only', () => {
    expect(heldBySyntheticFailure(BUILD, NEW)).toBe(true);
    expect(heldBySyntheticFailure(BUILD, testId('go', 'x/lib/sub', 'TestA'))).toBe(false);
    expect(heldBySyntheticFailure(BUILD, testId('other', 'x/lib', 'TestNew'))).toBe(false);
    const file = testId('js', 'test/a.test.js', FILE_LOAD_FAILURE);
    expect(heldBySyntheticFailure(file, testId('js', 'test/a.test.js > parse', 'reads'))).toBe(true);
    expect(heldBySyntheticFailure(file, testId('js', 'test/a.test.js.bak', 'x'))).toBe(false);
    const mod = testId('py', 'tests.test_x', COLLECTION_FAILURE);
    expect(heldBySyntheticFailure(mod, testId('py', 'tests.test_x.TestK', 'test_b'))).toBe(true);
    expect(heldBySyntheticFailure(mod, testId('py', 'tests.test_xy', 'test_b'))).toBe(false);
    expect(heldBySyntheticFailure(testId('tap', '', INCOMPLETE_STREAM), testId('tap', 'a > b', 'c'))).toBe(
      true,
    );
  });
});

describe('grading when base could not build the tests', () => {
  const plan = planMatrix([API], 'full');
  const groups = [{ name: 'go' }];

  it('one repository: base fails with "build failed", the new test is F2P, nothing is unnecessary', () => {
    const runs = [
      run(config(plan, 'base'), [brokenGroup('go', [BUILD])]),
      run(config(plan, 'full'), [reportedGroup('go', { [NEW]: 'passed' })]),
    ];
    const g = gradeOf({ plan, runs, groups });
    expect(g.tests.failToPass).toEqual([NEW]);
    expect(g.tests.seenOnlyWithPr).toBe(0);
    expect(outcomes(g)).toEqual({ base: 'fail', full: 'pass' });
    const base = g.configurations.find((c) => c.id === 'base')!;
    expect(base.groups[0]).toMatchObject({
      status: 'broken',
      reason: expect.stringMatching(/^build failed/),
    });
    expect(base.tests).toEqual([
      { id: NEW, kind: 'F2P', status: 'missing', reason: expect.stringMatching(/^build failed \(x\/lib\)/) },
    ]);
    expect(g.verdict).toMatchObject({ resolved: true, unnecessary: [], fixRate: 1 });
  });

  it('an unbuilt-at-base test the full configuration fails is a failing F2P, not a pass', () => {
    const runs = [
      run(config(plan, 'base'), [brokenGroup('go', [BUILD])]),
      run(config(plan, 'full'), [reportedGroup('go', { [NEW]: 'failed' })]),
    ];
    const g = gradeOf({ plan, runs, groups });
    expect(g.verdict).toMatchObject({ resolved: false, fixRate: 0 });
  });

  it('the full configuration failing to build fails it, whatever base did', () => {
    const runs = [
      run(config(plan, 'base'), [brokenGroup('go', [BUILD])]),
      run(config(plan, 'full'), [brokenGroup('go', [BUILD])]),
    ];
    const g = gradeOf({ plan, runs, groups });
    expect(outcomes(g)).toEqual({ base: 'fail', full: 'fail' });
    expect(g.verdict.resolved).toBe(false);
  });

  it('two repositories: a rename neither side builds alone is jointly necessary', () => {
    const both = planMatrix([API, WEB], 'full');
    const consumer = testId('go', 'x/app', 'TestUsesRenamed');
    const producer = testId('go', 'x/lib', 'TestRenamed');
    const runs = simulate(both, (a, c) =>
      a.size === 2
        ? { [consumer]: 'passed', [producer]: 'passed' }
        : run(c, [
            brokenGroup('go', [testId('go', 'x/app', BUILD_FAILURE), testId('go', 'x/lib', BUILD_FAILURE)]),
          ]),
    );
    const g = gradeOf({ plan: both, runs, groups });
    expect([...g.tests.failToPass].sort()).toEqual([consumer, producer]);
    expect(g.verdict).toMatchObject({ resolved: true, jointlyNecessary: true, unnecessary: [] });
  });

  it('invented tests still cannot raise the fix rate where base built and ran', () => {
    const invented = Array.from({ length: 50 }, (_, i) => testId('go', 'x/util', `TestInvented${i}`));
    const failing = testId('go', 'x/util', 'TestFix');
    const runs = [
      // x/util built and ran at base; x/lib did not build.
      run(config(plan, 'base'), [
        reportedGroup('go', { [failing]: 'failed', [OLD]: 'passed', [BUILD]: 'failed' }),
      ]),
      run(config(plan, 'full'), [
        reportedGroup('go', {
          [failing]: 'failed',
          [OLD]: 'passed',
          [NEW]: 'passed',
          ...Object.fromEntries(invented.map((t) => [t, 'passed' as const])),
        }),
      ]),
    ];
    const g = gradeOf({ plan, runs, groups });
    expect([...g.tests.failToPass].sort()).toEqual([failing, NEW].sort());
    expect(g.tests.seenOnlyWithPr).toBe(50);
    expect(g.verdict.fixRate).toBe(0.5);
    expect(g.verdict.resolved).toBe(false);
  });

  it('a test only a partial configuration reports stays unjudged: the full run names them', () => {
    const both = planMatrix([API, WEB], 'full');
    const runs = simulate(both, (a, c) =>
      a.size === 0
        ? run(c, [brokenGroup('go', [BUILD])])
        : c.id === 'full'
          ? { [NEW]: 'passed' }
          : { [NEW]: 'passed', [testId('go', 'x/lib', 'TestOnlyInPartial')]: 'passed' },
    );
    const g = gradeOf({ plan: both, runs, groups });
    expect(g.tests.failToPass).toEqual([NEW]);
    expect(g.tests.seenOnlyWithPr).toBe(1);
  });
});

describe('unnecessary targets', () => {
  it('never from a configuration judged on no test', () => {
    const plan = planMatrix([API, WEB], 'full');
    const runs = simulate(plan, () => ({}));
    const g = gradeOf({ plan, runs, groups: [], failToPass: [], passToPass: [] });
    expect(outcomes(g)).toMatchObject({ base: 'pass', full: 'pass' });
    expect(g.verdict.unnecessary).toEqual([]);
  });
});

describe('progress events when base could not build the tests', () => {
  it('wait for the full run and say what the report says', () => {
    const plan = planMatrix([API], 'full');
    const runs = [
      run(config(plan, 'base'), [brokenGroup('go', [BUILD])]),
      run(config(plan, 'full'), [reportedGroup('go', { [NEW]: 'failed' })]),
    ];
    const events: Array<[string, string, number, number]> = [];
    const progress = runProgress({
      baseId: 'base',
      fullId: 'full',
      emit: (e) => {
        if (e.type === 'configuration-done') events.push([e.id, e.outcome, e.passed, e.total]);
      },
    });
    progress.done(runs[0]!);
    expect(events).toEqual([]);
    progress.done(runs[1]!);
    const g = grade({ plan, runs, groups: [{ name: 'go' }] });
    expect(events).toEqual(g.configurations.map((c) => [c.id, c.outcome, c.passed, c.total]));
    expect(events).toEqual([
      ['base', 'fail', 0, 1],
      ['full', 'fail', 0, 1],
    ]);
  });
});
