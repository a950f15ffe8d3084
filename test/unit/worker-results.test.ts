/**
 * What the App believes of a worker's answer (app/executors/worker-results.ts): checked for size,
 * form and configuration before it is graded; the answers of all configurations grade like the
 * same runs in one report; a configuration no worker could run is that configuration's
 * infrastructure error, never a verdict.
 */
import { describe, expect, it } from 'vitest';
import {
  checkResult,
  type ExpectedChange,
  gradeWorkerResults,
} from '../../src/app/executors/worker-results.ts';
import { planMatrix } from '../../src/core/matrix-plan.ts';
import { MAX_RESULT_BYTES } from '../../src/core/worker-job.schema.ts';
import type { StoredResult } from '../../src/engine/workers/worker-tables.ts';
import { API, WEB } from '../helpers/repos.ts';
import { id, needs, reportFrom, simulate } from '../helpers/runs.ts';

const plan = planMatrix([API, WEB], 'full');
const F = id('api', 'creates a user');
const P = id('web', 'renders');
const runs = simulate(plan, (a) => ({ [F]: needs(a, API, WEB), [P]: 'passed' }));
const groups = [{ name: 'api' }, { name: 'web' }];
const whole = reportFrom({ plan, runs, groups });

function stored(configuration: string, report: unknown = undefined): StoredResult {
  const text =
    report === undefined
      ? JSON.stringify(
          reportFrom({
            plan,
            runs: runs.filter((r) => r.id === configuration),
            groups,
            shard: configuration,
          }),
        )
      : JSON.stringify(report);
  return {
    configuration,
    outcome: { kind: 'report', hostId: 'h1' },
    report: text,
    reportBytes: Buffer.byteLength(text),
    outcomeBytes: 40,
    bound: true,
    token: 't1',
  };
}

/** The change the App asked for: the one reportFrom's reports are of. */
const expected: ExpectedChange = {
  name: 'linked change',
  suite: { name: 'suite', tests: groups.map((g) => ({ ...g }) as never) },
  matrix: 'full',
  targets: [API, WEB].map((repo) => ({ repo, url: `https://example.test/${repo}.git` })),
  context: [],
};
const check = (r: StoredResult, configuration = r.configuration) =>
  checkResult(r, plan.configurations.find((c) => c.id === configuration)!, expected);

describe('worker results', () => {
  it('grade like one report of the same runs', () => {
    const results = new Map(plan.configurations.map((c) => [c.id, check(stored(c.id))]));
    const report = gradeWorkerResults(plan.configurations, results);
    expect(report.verdict).toEqual(whole.verdict);
    expect(report.configurations).toEqual(whole.configurations);
    expect(report.partial).toBeUndefined();
  });

  it('make a configuration no worker could run its infrastructure error', () => {
    const results = new Map(plan.configurations.map((c) => [c.id, check(stored(c.id))]));
    const partialId = plan.configurations.find((c) => c.role === 'partial')!.id;
    results.set(
      partialId,
      check({
        configuration: partialId,
        outcome: {
          kind: 'infra',
          hostId: '',
          error: { kind: 'engine', message: 'every worker stopped answering' },
        },
        report: null,
        reportBytes: 0,
        outcomeBytes: 100,
        bound: false,
        token: 't2',
      }),
    );
    const report = gradeWorkerResults(plan.configurations, results);
    expect(report.configurations.find((c) => c.id === partialId)?.outcome).toBe('error');
    expect(report.verdict.resolved).toBe(true);
    expect(report.verdict.jointlyNecessary).toBeNull();
  });

  it('refuse an answer over the size cap without reading it', () => {
    const r = { ...stored('full'), report: null, reportBytes: MAX_RESULT_BYTES + 1 };
    expect(check(r)).toEqual({
      error: { kind: 'engine', message: expect.stringContaining('over the') },
    });
  });

  it('refuse an answer of the wrong form, a non-report, or one for another configuration', () => {
    expect(check({ ...stored('full'), outcome: { kind: 'verdict', pass: true } })).toHaveProperty('error');
    expect(check({ ...stored('full'), report: '{"verdict":"resolved"}' })).toHaveProperty('error');
    expect(check({ ...stored('full'), report: 'not json' })).toHaveProperty('error');
    const base = JSON.parse(stored('base').report!);
    expect(check(stored('full', base))).toEqual({
      error: { kind: 'engine', message: expect.stringContaining('holds other configurations') },
    });
  });
});
