/**
 * The verdict definitions of docs/design.md "Verdicts", one test each (or a few), graded through
 * core/grading exactly as the engine and `tandem combine` do.
 */
import { describe, expect, it } from 'vitest';
import { type Grade, gradeSchema } from '../../src/core/grade.schema.ts';
import { type GradingInput, grade } from '../../src/core/grading.ts';
import type { MatrixMode } from '../../src/core/matrix-mode.ts';
import { type MatrixPlan, type PlannedConfiguration, planMatrix } from '../../src/core/matrix-plan.ts';
import type { ConfigurationRun, TestStatus } from '../../src/core/run.schema.ts';
import { API, CLI, WEB } from '../helpers/repos.ts';
import {
  config,
  errorRun,
  failedGroup,
  groupsOf,
  id,
  infra,
  metrics,
  needs,
  reportedGroup,
  run,
  type Statuses,
  simulate,
} from '../helpers/runs.ts';

const F = id('api', 'creates a user with the new field');
const F2 = id('web', 'submits the new field');
const P = id('api', 'health responds ok');
const P2 = id('web', 'renders the form');

/** Grades and checks the result against the schema the report is validated with. */
function gradeOf(input: GradingInput): Grade {
  const g = grade(input);
  expect(gradeSchema.safeParse(g).success).toBe(true);
  return g;
}

const groups = [{ name: 'api' }, { name: 'web' }];
const lists = { failToPass: [F, F2], passToPass: [P, P2] };

/** F and F2 need both PRs; P and P2 always pass. */
function jointChange(targets = [API, WEB], mode: MatrixMode = 'full') {
  const plan = planMatrix(targets, mode);
  const runs = simulate(plan, (a) => ({
    [F]: needs(a, API, WEB),
    [F2]: needs(a, API, WEB),
    [P]: 'passed',
    [P2]: 'passed',
  }));
  return { plan, runs };
}

const outcomes = (g: Grade) => Object.fromEntries(g.configurations.map((c) => [c.id, c.outcome]));
const fullOf = (g: Grade) => g.configurations.find((c) => c.role === 'full')!;
const testOf = (g: Grade, cid: string, tid: string) =>
  g.configurations.find((c) => c.id === cid)?.tests.find((t) => t.id === tid);

/** Grades `plan` as simulated by `statuses`, with F the only F2P test and P the only P2P test. */
function gradeFP(plan: MatrixPlan, statuses: Parameters<typeof simulate>[1]): Grade {
  return gradeOf({ plan, runs: simulate(plan, statuses), groups, failToPass: [F], passToPass: [P] });
}

/** Grades jointChange() with its full run replaced by what `full` makes of the full configuration. */
function gradeWithFull(
  full: (c: PlannedConfiguration) => ConfigurationRun,
  over: Partial<GradingInput> = {},
): Grade {
  const { plan, runs } = jointChange();
  const replaced = [...runs.filter((r) => r.id !== 'full'), full(config(plan, 'full'))];
  return gradeOf({ plan, runs: replaced, groups, ...lists, ...over });
}

describe('resolved', () => {
  it('is true when every F2P and P2P test passes in the full configuration', () => {
    const { plan, runs } = jointChange();
    const g = gradeOf({ plan, runs, groups, ...lists });
    expect(g.verdict.resolved).toBe(true);
    expect(g.resolved).toBe(true);
    expect(g.outcome).toBe('resolved');
    expect(g.summary).toBe('complete');
    expect(fullOf(g)).toMatchObject({
      outcome: 'pass',
      passed: 4,
      total: 4,
      f2p: { passed: 2, total: 2 },
      p2p: { passed: 2, total: 2 },
    });
  });

  it('is false when one P2P test fails in full', () => {
    const { plan } = jointChange();
    const runs = simulate(plan, (a) => ({
      [F]: needs(a, API, WEB),
      [F2]: needs(a, API, WEB),
      [P]: 'passed',
      [P2]: a.size === 2 ? 'failed' : 'passed',
    }));
    const g = gradeOf({ plan, runs, groups, ...lists });
    expect(g.verdict.resolved).toBe(false);
    expect(g.outcome).toBe('unresolved');
    expect(fullOf(g).outcome).toBe('fail');
    expect(testOf(g, 'full', P2)).toMatchObject({
      kind: 'P2P',
      status: 'failed',
      reason: `assertion failed in ${P2}`,
    });
  });

  it('counts a missing test as failed', () => {
    const g = gradeWithFull((c) => run(c, groupsOf({ [F]: 'passed', [P]: 'passed', [P2]: 'passed' })));
    expect(g.verdict.resolved).toBe(false);
    expect(testOf(g, 'full', F2)).toEqual({
      id: F2,
      kind: 'F2P',
      status: 'missing',
      reason: 'not reported by its test group',
    });
    expect(fullOf(g).f2p).toEqual({ passed: 1, total: 2 });
  });

  it('counts a skipped F2P test as failed', () => {
    const g = gradeWithFull((c) =>
      run(c, groupsOf({ [F]: 'passed', [F2]: 'skipped', [P]: 'passed', [P2]: 'passed' })),
    );
    expect(g.verdict.resolved).toBe(false);
    expect(fullOf(g).outcome).toBe('fail');
    expect(testOf(g, 'full', F2)?.status).toBe('skipped');
    expect(g.tests_status.FAIL_TO_PASS).toEqual({ success: [F], failure: [F2] });
  });

  it('counts an errored test as failed', () => {
    const g = gradeWithFull((c) =>
      run(c, groupsOf({ [F]: 'passed', [F2]: 'passed', [P]: 'error', [P2]: 'passed' })),
    );
    expect(g.verdict.resolved).toBe(false);
    expect(g.tests_status.PASS_TO_PASS).toEqual({ success: [P2], failure: [P] });
  });
});

describe('groups that did not report', () => {
  /** The web group reported both its tests passing. */
  const webPasses = () => reportedGroup('web', { [F2]: 'passed', [P2]: 'passed' });

  it('a crashed group fails its tests with the group reason', () => {
    const g = gradeWithFull((c) =>
      run(c, [
        failedGroup('api', 'crashed', { reason: 'exit 2: cannot find module ./hidden/users.test.js' }),
        webPasses(),
      ]),
    );
    expect(g.verdict.resolved).toBe(false);
    expect(fullOf(g).outcome).toBe('fail');
    for (const tid of [F, P]) {
      expect(testOf(g, 'full', tid)).toMatchObject({
        status: 'missing',
        reason: 'exit 2: cannot find module ./hidden/users.test.js',
      });
    }
    expect(testOf(g, 'full', F2)?.status).toBe('passed');
    expect(fullOf(g).groups.find((x) => x.name === 'api')).toMatchObject({
      status: 'crashed',
      exitCode: 1,
      reason: 'exit 2: cannot find module ./hidden/users.test.js',
    });
  });

  it('a crashed group without a reason gets one naming the group and exit code', () => {
    const g = gradeWithFull((c) => run(c, [failedGroup('api', 'crashed', { exitCode: 3 }), webPasses()]));
    expect(testOf(g, 'full', F)?.reason).toBe(
      'test group "api" ended (exit 3) without writing its result file',
    );
  });

  it.each([
    ['timeout', 'test group "api" timed out'],
    ['oom', 'test group "api" was killed for exceeding its memory limit'],
    ['setup-failed', 'a setup step failed, so the group did not run'],
    ['not-run', 'the configuration stopped before this group ran'],
  ] as const)(
    'a group ending with %s fails its tests (a test failure, not an infrastructure error)',
    (status, reason) => {
      const g = gradeWithFull((c) => run(c, [failedGroup('api', status), webPasses()]));
      expect(g.outcome).toBe('unresolved');
      expect(g.verdict.resolved).toBe(false);
      expect(fullOf(g).outcome).toBe('fail');
      expect(testOf(g, 'full', F)).toMatchObject({ status: 'missing', reason });
      expect(testOf(g, 'full', P)).toMatchObject({ status: 'missing', reason });
      expect(g.infraErrors).toEqual([]);
    },
  );

  it('a group that crashed in full fails full even when no run ever reported its tests', () => {
    // docs/design.md: "a group whose command crashed before reporting fails, with the reason".
    // Without suite lists the group's tests are unknown, but the group itself still failed.
    const plan = planMatrix([API], 'full');
    const runs = simulate(plan, (_a, c) =>
      run(c, [
        reportedGroup('web', { [P2]: 'passed' }),
        failedGroup('api', 'crashed', { reason: 'hidden test does not compile' }),
      ]),
    );
    const g = gradeOf({ plan, runs, groups });
    expect(fullOf(g).outcome).not.toBe('pass');
    expect(g.verdict.resolved).toBe(false);
  });
});

describe('infrastructure errors', () => {
  it('in full: outcome error, never resolved, never a pass', () => {
    const err = infra('image-missing', 'image tandem/nope:1 not found');
    const g = gradeWithFull((c) => errorRun(c, err));
    expect(g.outcome).toBe('error');
    expect(g.verdict.resolved).toBe(false);
    expect(g.resolved).toBe(false);
    expect(g.verdict.jointlyNecessary).toBeNull();
    expect(g.verdict.fixRate).toBe(0);
    expect(fullOf(g)).toMatchObject({ outcome: 'error', tests: [], error: { kind: 'image-missing' } });
    expect(g.summary).toContain('image tandem/nope:1 not found');
    expect(g.infraErrors).toEqual([{ ...err, configuration: 'full' }]);
    expect(g.tests_status.FAIL_TO_PASS).toEqual({ success: [], failure: [F, F2] });
    expect(g.tests_status.PASS_TO_PASS).toEqual({ success: [], failure: [P, P2] });
  });

  it('in full, even when the run also reported passing tests, is still an error', () => {
    const g = gradeWithFull((c) =>
      run(c, groupsOf({ [F]: 'passed', [F2]: 'passed', [P]: 'passed', [P2]: 'passed' }), {
        infraError: infra('result-unparseable', 'results/api.xml: not XML'),
      }),
    );
    expect(g.outcome).toBe('error');
    expect(g.verdict.resolved).toBe(false);
    expect(fullOf(g).outcome).toBe('error');
  });

  it('in a partial: jointly necessary unknown (null), resolved still judged', () => {
    const { plan, runs } = jointChange();
    const broken = errorRun(
      config(plan, 'web'),
      infra('merge-conflict', 'web head conflicts with base', { target: WEB }),
    );
    const g = gradeOf({ plan, runs: [...runs.filter((r) => r.id !== 'web'), broken], groups, ...lists });
    expect(g.outcome).toBe('resolved');
    expect(g.verdict.resolved).toBe(true);
    expect(g.verdict.jointlyNecessary).toBeNull();
    expect(outcomes(g)).toEqual({ base: 'fail', api: 'fail', web: 'error', full: 'pass' });
    expect(g.summary).toMatch(/1 infrastructure error/);
  });

  it('a planned configuration that was not run leaves jointly necessary unknown', () => {
    const { plan, runs } = jointChange();
    const g = gradeOf({ plan, runs: runs.filter((r) => r.id !== 'api'), groups, ...lists });
    expect(g.configurations.map((c) => c.id)).toEqual(['base', 'web', 'full']);
    expect(g.verdict.jointlyNecessary).toBeNull();
    expect(g.verdict.resolved).toBe(true);
  });

  it('full not run: outcome error', () => {
    const { plan, runs } = jointChange();
    const g = gradeOf({ plan, runs: runs.filter((r) => r.id !== 'full'), groups, ...lists });
    expect(g.outcome).toBe('error');
    expect(g.verdict.resolved).toBe(false);
    expect(g.summary).toBe('the full configuration was not run');
  });

  it('are reported once however many configurations they broke', () => {
    const { plan, runs } = jointChange();
    const e = infra('patch-failed', 'patch does not apply to acme/web', {
      target: WEB,
      files: ['src/form.ts'],
    });
    const other = infra('engine', 'container exited unexpectedly');
    const g = gradeOf({
      plan,
      runs: [
        ...runs.filter((r) => r.id !== 'web' && r.id !== 'full'),
        errorRun(config(plan, 'web'), e),
        errorRun(config(plan, 'full'), e),
      ],
      groups,
      ...lists,
      infraErrors: [e, other],
    });
    expect(g.infraErrors).toEqual([e, other]);
    expect(g.configurations.filter((c) => c.outcome === 'error').map((c) => c.id)).toEqual(['web', 'full']);
  });

  it('distinct errors are all kept', () => {
    const { plan, runs } = jointChange();
    const g = gradeOf({
      plan,
      runs: [
        ...runs.filter((r) => r.id !== 'web' && r.id !== 'api'),
        errorRun(config(plan, 'api'), infra('engine', 'boom 1')),
        errorRun(config(plan, 'web'), infra('engine', 'boom 2')),
      ],
      groups,
      ...lists,
    });
    expect(g.infraErrors.map((e) => e.message)).toEqual(['boom 1', 'boom 2']);
  });
});

describe('jointly necessary', () => {
  it('is true when base and every partial fail and full passes', () => {
    const { plan, runs } = jointChange([API, WEB, CLI]);
    const g = gradeOf({ plan, runs, groups, ...lists });
    expect(outcomes(g)).toEqual({
      base: 'fail',
      api: 'fail',
      web: 'fail',
      cli: 'fail',
      'api+web': 'pass',
      'api+cli': 'fail',
      'web+cli': 'fail',
      full: 'pass',
    });
    // api+web passes, so with three targets the change is not jointly necessary.
    expect(g.verdict.jointlyNecessary).toBe(false);
    expect(g.verdict.resolved).toBe(true);
  });

  it('is true for three targets all needed', () => {
    const g = gradeFP(planMatrix([API, WEB, CLI], 'full'), (a) => ({
      [F]: needs(a, API, WEB, CLI),
      [P]: 'passed',
    }));
    expect(g.verdict.jointlyNecessary).toBe(true);
    expect(g.verdict.jointlyNecessaryBasis).toBe('full');
    expect(g.verdict.unnecessary).toEqual([]);
  });

  it('is true for two targets both needed', () => {
    const { plan, runs } = jointChange();
    const g = gradeOf({ plan, runs, groups, ...lists });
    expect(g.verdict.jointlyNecessary).toBe(true);
  });

  it.each<[string, (applied: ReadonlySet<string>) => TestStatus, boolean]>([
    ['one PR alone already resolves', (a) => needs(a, API), true],
    ['full fails', () => 'failed', false],
    ['base already passes', () => 'passed', true],
  ])('is false when %s', (_when, fStatus, resolved) => {
    const g = gradeFP(planMatrix([API, WEB], 'full'), (a) => ({ [F]: fStatus(a), [P]: 'passed' }));
    expect(g.verdict.resolved).toBe(resolved);
    expect(g.verdict.jointlyNecessary).toBe(false);
  });

  it('in leave-one-out mode is judged on the configurations run, and the basis says so', () => {
    const targets = [API, WEB, CLI, 'acme/docs', 'acme/infra'];
    const plan = planMatrix(targets, 'auto');
    expect(plan.mode).toBe('leave-one-out');
    const g = gradeFP(plan, (a) => ({ [F]: needs(a, ...targets), [P]: 'passed' }));
    expect(g.configurations).toHaveLength(7);
    expect(g.verdict.jointlyNecessary).toBe(true);
    expect(g.verdict.jointlyNecessaryBasis).toBe('leave-one-out');
  });

  it('leave-one-out judges only what it ran: a partial outside the plan does not count', () => {
    // api alone would pass, but leave-one-out never runs api alone (only full minus each).
    const both = (a: ReadonlySet<string>) =>
      a.size === 3 || (a.size === 1 && a.has(API)) ? 'passed' : 'failed';
    const g = gradeFP(planMatrix([API, WEB, CLI], 'leave-one-out'), (a) => ({ [F]: both(a), [P]: 'passed' }));
    expect(g.configurations.map((c) => c.id)).toEqual(['base', 'web+cli', 'api+cli', 'api+web', 'full']);
    expect(g.verdict.jointlyNecessary).toBe(true);
    expect(g.verdict.jointlyNecessaryBasis).toBe('leave-one-out');

    const h = gradeFP(planMatrix([API, WEB, CLI], 'full'), (a) => ({ [F]: both(a), [P]: 'passed' }));
    expect(h.verdict.jointlyNecessary).toBe(false);
    expect(h.verdict.jointlyNecessaryBasis).toBe('full');
  });
});

describe('unnecessary targets', () => {
  it('lists a target whose full-minus-it configuration is resolved', () => {
    const g = gradeFP(planMatrix([API, WEB, CLI], 'full'), (a) => ({
      [F]: needs(a, API, WEB),
      [P]: 'passed',
    }));
    expect(g.verdict.unnecessary).toEqual([CLI]);
  });

  it('works in leave-one-out mode', () => {
    const g = gradeFP(planMatrix([API, WEB, CLI], 'leave-one-out'), (a) => ({
      [F]: needs(a, WEB),
      [P]: 'passed',
    }));
    expect(g.verdict.unnecessary).toEqual([API, CLI]);
  });

  it('is empty when every target is needed', () => {
    const { plan, runs } = jointChange();
    expect(gradeOf({ plan, runs, groups, ...lists }).verdict.unnecessary).toEqual([]);
  });

  it('with one target, base passing makes the target unnecessary', () => {
    const g = gradeFP(planMatrix([API], 'full'), () => ({ [F]: 'passed', [P]: 'passed' }));
    expect(g.verdict.unnecessary).toEqual([API]);
    expect(g.verdict.resolved).toBe(true);
    expect(g.verdict.jointlyNecessary).toBe(false);
  });

  it('with one target and no suite lists, a base where everything passes makes the target unnecessary', () => {
    const plan = planMatrix([API], 'full');
    const runs = simulate(plan, () => ({ [F]: 'passed', [P]: 'passed' }));
    const g = gradeOf({ plan, runs, groups });
    expect(g.tests.failToPass).toEqual([]);
    expect(g.tests.passToPass).toEqual([F, P].sort());
    expect(g.verdict.unnecessary).toEqual([API]);
    expect(g.verdict.jointlyNecessary).toBe(false);
  });

  it('with one target and a failing base, the target is needed', () => {
    const g = gradeFP(planMatrix([API], 'full'), (a) => ({ [F]: needs(a, API), [P]: 'passed' }));
    expect(g.verdict.unnecessary).toEqual([]);
    expect(g.verdict.jointlyNecessary).toBe(true);
  });

  it('a full-minus-it configuration with an infrastructure error does not make a target unnecessary', () => {
    const g = gradeFP(planMatrix([API, WEB], 'full'), (a, c) =>
      c.id === 'api'
        ? errorRun(c, infra('engine', 'daemon went away'))
        : { [F]: needs(a, API), [P]: 'passed' },
    );
    expect(g.verdict.unnecessary).toEqual([]);
  });
});

describe('fix rate', () => {
  const F3 = id('api', 'third');
  const f2p = [F, F2, F3];

  /** api's PR fixes the F2P tests in `fixed` (the others keep failing) and breaks the P2P tests in `regressed`. */
  function gradeFixing(fixed: string[], regressed: string[] = []): Grade {
    const plan = planMatrix([API], 'full');
    const runs = simulate(
      plan,
      (a): Statuses => ({
        ...Object.fromEntries(f2p.map((t) => [t, fixed.includes(t) ? needs(a, API) : 'failed'])),
        [P]: 'passed',
        ...Object.fromEntries(regressed.map((t) => [t, a.has(API) ? 'failed' : 'passed'])),
      }),
    );
    return gradeOf({ plan, runs, groups, failToPass: f2p, passToPass: [P, ...regressed] });
  }

  it('is the fraction of F2P tests passing in full', () => {
    const g = gradeFixing([F, F2]);
    expect(g.verdict.fixRate).toBeCloseTo(2 / 3);
    expect(g.verdict.resolved).toBe(false);
  });

  it('is 1 when every F2P passes', () => {
    expect(gradeFixing(f2p).verdict.fixRate).toBe(1);
  });

  it('is 0 when any P2P test regresses, however many F2P pass', () => {
    const g = gradeFixing(f2p, [P2]);
    expect(fullOf(g).f2p).toEqual({ passed: 3, total: 3 });
    expect(g.verdict.fixRate).toBe(0);
  });

  it('counts missing F2P tests as not fixed', () => {
    const plan = planMatrix([API], 'full');
    const runs = simulate(plan, (a) => (a.has(API) ? { [F]: 'passed', [P]: 'passed' } : { [P]: 'passed' }));
    const g = gradeOf({ plan, runs, groups, failToPass: [F, F2], passToPass: [P] });
    expect(g.verdict.fixRate).toBe(0.5);
  });
});

describe('F2P / P2P classification', () => {
  const T = {
    fails: id('api', 'fails on base'),
    passes: id('api', 'passes on base'),
    skipped: id('api', 'skipped on base'),
    errors: id('web', 'errors on base'),
    absent: id('web', 'added by the change'),
  };

  it('without suite lists, the all-base run classifies: failing → F2P, passing → P2P, skipped → ignored', () => {
    const plan = planMatrix([API, WEB], 'full');
    const runs = simulate(plan, (a) =>
      a.size === 0
        ? { [T.fails]: 'failed', [T.passes]: 'passed', [T.skipped]: 'skipped', [T.errors]: 'error' }
        : {
            [T.fails]: 'passed',
            [T.passes]: 'passed',
            [T.skipped]: 'passed',
            [T.errors]: 'passed',
            [T.absent]: 'passed',
          },
    );
    const g = gradeOf({ plan, runs, groups });
    expect(g.tests.source).toEqual({ failToPass: 'base-run', passToPass: 'base-run' });
    // T.absent is reported only with PR code: counted, never expected (issue 18 item 6).
    expect([...g.tests.failToPass].sort()).toEqual([T.errors, T.fails].sort());
    expect(g.tests.passToPass).toEqual([T.passes]);
    expect(g.tests.ignored).toEqual([T.skipped]);
    expect(g.tests.seenOnlyWithPr).toBe(1);
    expect(fullOf(g).tests.map((t) => t.id)).not.toContain(T.skipped);
    expect(g.verdict.resolved).toBe(true);
  });

  it('a test absent on base and seen only in a partial is neither F2P nor P2P: only counted', () => {
    const plan = planMatrix([API, WEB], 'full');
    const runs = simulate(plan, (_a, c) =>
      c.id === 'api' ? { [T.passes]: 'passed', [T.absent]: 'passed' } : { [T.passes]: 'passed' },
    );
    const g = gradeOf({ plan, runs, groups });
    expect(g.tests.failToPass).toEqual([]);
    expect(g.tests.seenOnlyWithPr).toBe(1);
    expect(testOf(g, 'full', T.absent)).toBeUndefined();
    expect(g.verdict.resolved).toBe(true);
  });

  it('tests the PR invents never raise the fix rate nor reach a published list (issue 18 item 6)', () => {
    const plan = planMatrix([API], 'full');
    const invented = Array.from({ length: 100 }, (_, i) => id('api', `invented ${i}`));
    const leak = id('api', 'aGlkZGVuIGZpbGUgY29udGVudA==');
    const runs = simulate(
      plan,
      (a): Statuses =>
        a.size === 0
          ? { [F]: 'failed' }
          : {
              [F]: 'failed',
              ...Object.fromEntries(invented.map((t) => [t, 'passed' as const])),
              [leak]: 'failed',
            },
    );
    const g = gradeOf({ plan, runs, groups });
    expect(g.tests.failToPass).toEqual([F]);
    expect(g.verdict.fixRate).toBe(0);
    expect(g.tests.seenOnlyWithPr).toBe(101);
    expect(JSON.stringify(g)).not.toContain('invented');
    expect(JSON.stringify(g)).not.toContain('aGlkZGVu');
  });

  it('with suite lists, ids neither listed nor seen on base are counted as seen only with the PR', () => {
    const plan = planMatrix([API], 'full');
    const extra = id('api', 'added by the PR');
    const runs = simulate(plan, (a) =>
      a.size === 0 ? { [F]: 'failed', [P]: 'passed' } : { [F]: 'passed', [P]: 'passed', [extra]: 'failed' },
    );
    const g = gradeOf({ plan, runs, groups, failToPass: [F], passToPass: [P] });
    expect(g.tests.seenOnlyWithPr).toBe(1);
    expect(g.verdict.resolved).toBe(true);
    const partialLists = gradeOf({ plan, runs, groups, failToPass: [F] });
    expect(partialLists.tests.passToPass).toEqual([P]);
    expect(partialLists.tests.seenOnlyWithPr).toBe(1);
  });

  it('a base group that crashed fails base, and the tests the full run reports in it are F2P (issue 31)', () => {
    const plan = planMatrix([API], 'full');
    const runs = [
      run(config(plan, 'base'), [failedGroup('api', 'crashed'), reportedGroup('web', { [P2]: 'passed' })]),
      run(config(plan, 'full'), groupsOf({ [F]: 'passed', [P2]: 'passed' })),
    ];
    const g = gradeOf({ plan, runs, groups });
    expect(g.tests.failToPass).toEqual([F]);
    expect(g.tests.passToPass).toEqual([P2]);
    expect(g.tests.seenOnlyWithPr).toBe(0);
    expect(g.configurations.map((c) => [c.id, c.outcome])).toEqual([
      ['base', 'fail'],
      ['full', 'pass'],
    ]);
  });

  it('suite lists are used as given, whatever base did', () => {
    const plan = planMatrix([API], 'full');
    const runs = simulate(plan, () => ({ [F]: 'passed', [P]: 'failed', [P2]: 'passed' }));
    const never = id('api', 'never reported');
    const g = gradeOf({ plan, runs, groups, failToPass: [P, F], passToPass: [never] });
    expect(g.tests.source).toEqual({ failToPass: 'suite', passToPass: 'suite' });
    expect(g.tests.failToPass).toEqual([P, F]);
    expect(g.tests.passToPass).toEqual([never]);
    expect(g.tests.ignored).toEqual([]);
    expect(fullOf(g).tests.map((t) => [t.id, t.kind, t.status])).toEqual([
      [P, 'F2P', 'failed'],
      [F, 'F2P', 'passed'],
      [never, 'P2P', 'missing'],
    ]);
    expect(g.verdict.resolved).toBe(false);
  });

  it('a suite F2P list alone is kept; P2P comes from base for the other tests', () => {
    const plan = planMatrix([API], 'full');
    const runs = simulate(plan, (a) => ({ [F]: needs(a, API), [P]: 'passed', [P2]: 'passed' }));
    const g = gradeOf({ plan, runs, groups, failToPass: [F] });
    expect(g.tests.source).toEqual({ failToPass: 'suite', passToPass: 'base-run' });
    expect(g.tests.failToPass).toEqual([F]);
    expect(g.tests.passToPass).toEqual([P, P2].sort());
  });

  it('without lists and without a base result, grading is an error, not a verdict', () => {
    const plan = planMatrix([API, WEB], 'full');
    const runs = simulate(plan, (a, c) =>
      c.role === 'base' ? errorRun(c, infra('fetch', 'cannot fetch base')) : { [F]: needs(a, API, WEB) },
    );
    const g = gradeOf({ plan, runs, groups });
    expect(g.outcome).toBe('error');
    expect(g.verdict.resolved).toBe(false);
    expect(g.summary).toMatch(/cannot be classified/);
    // The cause first: it is what a reader acts on.
    expect(g.summary.startsWith('cannot fetch base; ')).toBe(true);
    expect(Object.values(outcomes(g))).toEqual(['error', 'error', 'error', 'error']);
    expect(g.verdict.unnecessary).toEqual([]);
  });
});

describe('per repository metrics', () => {
  const repoGroups = [{ name: 'api', repo: API }, { name: 'web', repo: WEB }, { name: 'e2e' }];
  const E = id('e2e', 'journey');

  it('reports F2P-complete, P2P-preserved and success for each group repo', () => {
    const plan = planMatrix([API, WEB], 'full');
    const runs = simulate(
      plan,
      (a) => ({
        [F]: needs(a, API),
        [P]: 'passed',
        [F2]: needs(a, WEB),
        [P2]: a.has(WEB) ? 'failed' : 'passed',
        [E]: needs(a, API, WEB),
      }),
      { api: API, web: WEB },
    );
    const g = gradeOf({ plan, runs, groups: repoGroups, failToPass: [F, F2, E], passToPass: [P, P2] });
    expect(g.repositories).toEqual([
      metrics(API, [1, 1], [1, 1], { f2pComplete: true, p2pPreserved: true, success: true }),
      metrics(WEB, [1, 1], [0, 1], { f2pComplete: true, p2pPreserved: false, success: false }),
    ]);
  });

  it('groups naming the same repo are pooled', () => {
    const plan = planMatrix([API], 'full');
    const X = id('api2', 'more');
    const runs = simulate(plan, (a) => ({ [F]: needs(a, API), [X]: 'failed', [P]: 'passed' }));
    const g = gradeOf({
      plan,
      runs,
      groups: [
        { name: 'api', repo: API },
        { name: 'api2', repo: API },
      ],
      failToPass: [F, X],
      passToPass: [P],
    });
    expect(g.repositories).toEqual([
      metrics(API, [1, 2], [1, 1], { f2pComplete: false, p2pPreserved: true, success: false }),
    ]);
  });

  it('no groups with a repo → no per-repo metrics', () => {
    const { plan, runs } = jointChange();
    expect(gradeOf({ plan, runs, groups, ...lists }).repositories).toEqual([]);
  });

  it('full with an infrastructure error: every repo unsuccessful', () => {
    const g = gradeWithFull((c) => errorRun(c, infra('engine', 'x')), { groups: repoGroups });
    expect(g.repositories.map((r) => [r.repo, r.success, r.f2pComplete, r.p2pPreserved])).toEqual([
      [API, false, false, false],
      [WEB, false, false, false],
    ]);
  });
});

describe('reruns of full', () => {
  const plan = planMatrix([API], 'full');
  const full = (attempt: number, fStatus: 'passed' | 'failed') =>
    run(config(plan, 'full'), groupsOf({ [F]: fStatus, [P]: 'passed' }), { attempt });
  /** Grades F (failing on base) and P over base plus the given runs of full. */
  const gradeFull = (...fullRuns: ConfigurationRun[]) =>
    gradeOf({
      plan,
      runs: [run(config(plan, 'base'), groupsOf({ [F]: 'failed', [P]: 'passed' })), ...fullRuns],
      groups,
      failToPass: [F],
      passToPass: [P],
    });

  it('a test failing in any run fails, and is listed as flaky', () => {
    const g = gradeFull(full(2, 'passed'), full(0, 'passed'), full(1, 'failed'));
    expect(g.verdict.resolved).toBe(false);
    expect(fullOf(g)).toMatchObject({ outcome: 'fail', runs: 3 });
    expect(testOf(g, 'full', F)?.status).toBe('failed');
    expect(g.flaky).toEqual([{ id: F, statuses: ['passed', 'failed', 'passed'] }]);
  });

  it('a test failing on the first run and passing on a rerun still fails', () => {
    const g = gradeFull(full(0, 'failed'), full(1, 'passed'));
    expect(g.verdict.resolved).toBe(false);
    expect(g.flaky).toEqual([{ id: F, statuses: ['failed', 'passed'] }]);
  });

  it('stable reruns: resolved and no flaky tests', () => {
    const g = gradeFull(full(0, 'passed'), full(1, 'passed'));
    expect(g.verdict.resolved).toBe(true);
    expect(g.flaky).toEqual([]);
    expect(fullOf(g).runs).toBe(2);
  });

  it('a rerun that did not report a test fails it as missing', () => {
    const rerun = run(config(plan, 'full'), [failedGroup('api', 'timeout')], { attempt: 1 });
    const g = gradeFull(full(0, 'passed'), rerun);
    expect(g.verdict.resolved).toBe(false);
    expect(testOf(g, 'full', F)).toMatchObject({ status: 'missing', reason: 'test group "api" timed out' });
    expect(g.flaky.map((f) => f.id).sort()).toEqual([F, P].sort());
  });
});

describe('configuration details', () => {
  it('sums durations over runs and is cached only when every run was', () => {
    const plan = planMatrix([API], 'full');
    const runs = [
      run(config(plan, 'base'), groupsOf({ [F]: 'failed' }), { cached: true, durationMs: 5 }),
      run(config(plan, 'full'), groupsOf({ [F]: 'passed' }), { cached: true, durationMs: 7 }),
      run(config(plan, 'full'), groupsOf({ [F]: 'passed' }), { cached: false, durationMs: 11, attempt: 1 }),
    ];
    const g = gradeOf({ plan, runs, groups, failToPass: [F], passToPass: [] });
    expect(g.configurations.map((c) => [c.id, c.cached, c.durationMs, c.runs])).toEqual([
      ['base', true, 5, 1],
      ['full', false, 18, 2],
    ]);
    expect(g.configurations[1]).toMatchObject({ applied: [API], role: 'full' });
  });
});

describe('SWE-bench fields', () => {
  it('tests_status splits each list into success and failure in full', () => {
    const plan = planMatrix([API, WEB], 'full');
    const runs = simulate(plan, (a) => ({
      [F]: needs(a, API, WEB),
      [F2]: 'failed',
      [P]: 'passed',
      [P2]: a.size === 2 ? 'failed' : 'passed',
    }));
    const g = gradeOf({ plan, runs, groups, ...lists });
    expect(g.tests_status).toEqual({
      FAIL_TO_PASS: { success: [F], failure: [F2] },
      PASS_TO_PASS: { success: [P], failure: [P2] },
      FAIL_TO_FAIL: { success: [], failure: [] },
      PASS_TO_FAIL: { success: [], failure: [] },
    });
    expect(g.resolved).toBe(false);
    expect(g.patch_successfully_applied).toBe(true);
  });

  it('resolved mirrors the verdict', () => {
    const { plan, runs } = jointChange();
    const g = gradeOf({ plan, runs, groups, ...lists });
    expect(g.resolved).toBe(true);
    expect(g.tests_status.FAIL_TO_PASS).toEqual({ success: [F, F2], failure: [] });
    expect(g.patch_successfully_applied).toBe(true);
  });

  it.each(['patch-failed', 'merge-conflict'] as const)(
    'patch_successfully_applied is false on %s',
    (kind) => {
      const { plan, runs } = jointChange();
      const e = infra(kind, 'does not apply', { target: WEB });
      const g = gradeOf({
        plan,
        runs: [
          ...runs.filter((r) => r.applied.includes(WEB) === false),
          ...runs.filter((r) => r.applied.includes(WEB)).map((r) => errorRun(r, e)),
        ],
        groups,
        ...lists,
        infraErrors: [e],
      });
      expect(g.patch_successfully_applied).toBe(false);
      expect(g.resolved).toBe(false);
      expect(g.outcome).toBe('error');
      expect(g.infraErrors).toEqual([e]);
    },
  );

  it('patch_successfully_applied stays true on other infrastructure errors', () => {
    const g = gradeWithFull((c) => errorRun(c, infra('image-missing', 'no image')));
    expect(g.patch_successfully_applied).toBe(true);
    expect(g.resolved).toBe(false);
  });
});

describe('an invalid suite is never a verdict on the code', () => {
  const MISSPELT = id('api', 'creates a usr with the new field');

  it('listed ids no configuration reports, not even all-base: error, invalid suite, not unresolved', () => {
    const { plan, runs } = jointChange();
    const g = gradeOf({ plan, runs, groups, failToPass: [F, F2, MISSPELT], passToPass: [P, P2] });
    expect(g.outcome).toBe('error');
    expect(g.invalidSuite).toEqual({
      fields: ['fail_to_pass'],
      message: expect.stringContaining('1 listed test id in fail_to_pass was never reported'),
      unmatched: [MISSPELT],
    });
    expect(g.summary.startsWith('invalid suite — not a verdict on the code: ')).toBe(true);
    expect(g.summary).not.toContain(MISSPELT);
    expect(g.verdict).toMatchObject({ resolved: false, jointlyNecessary: null, fixRate: 0, unnecessary: [] });
  });

  it('an id its crashed group may explain is judged as before (the code may have broken it)', () => {
    const plan = planMatrix([API, WEB], 'full');
    const runs = simulate(plan, (a, c) =>
      run(c, [failedGroup('api', 'crashed'), ...groupsOf({ [F2]: needs(a, API, WEB), [P2]: 'passed' })]),
    );
    const g = gradeOf({ plan, runs, groups, failToPass: [F, F2], passToPass: [P2] });
    expect(g.invalidSuite).toBeUndefined();
    expect(g.outcome).toBe('unresolved');
  });

  it('an id the all-base run reported is a test, not a mistake, even when full never reports it', () => {
    const plan = planMatrix([API, WEB], 'full');
    const runs = simulate(plan, (a) => (a.size === 0 ? { [F]: 'failed', [P]: 'passed' } : { [P]: 'passed' }));
    const g = gradeOf({ plan, runs, groups, failToPass: [F], passToPass: [P] });
    expect(g.invalidSuite).toBeUndefined();
    expect(g.outcome).toBe('unresolved');
  });

  it('an image that does not exist is the suite field image', () => {
    const plan = planMatrix([API], 'full');
    const err = infra('image-missing', 'image "acme/nope" is not available locally');
    const runs = plan.configurations.map((c) => errorRun(c, err));
    const g = gradeOf({ plan, runs, groups, ...lists });
    expect(g.outcome).toBe('error');
    expect(g.invalidSuite).toMatchObject({ fields: ['image'], unmatched: [] });
    expect(g.summary).toContain('invalid suite — not a verdict on the code: image "acme/nope"');
  });
});
