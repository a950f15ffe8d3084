import { describe, expect, it } from 'vitest';
import { grade } from '../../src/core/grading.ts';
import { LeakFilter, NO_LEAK_FILTER } from '../../src/core/leak-filter.ts';
import { planMatrix } from '../../src/core/matrix-plan.ts';
import { reportSchema } from '../../src/core/report.schema.ts';
import type { MaterializedRepo } from '../../src/engine/git/workspace-states.ts';
import { type ReportStepInput, reportStep } from '../../src/engine/pipeline/report-step.ts';
import { API } from '../helpers/repos.ts';
import { id, reportedGroup, run } from '../helpers/runs.ts';

const F = id('api', 'creates');
const plan = planMatrix([API], 'full');
const runs = [
  run(plan.configurations[0]!, [reportedGroup('api', { [F]: 'failed' })]),
  run(plan.configurations[1]!, [reportedGroup('api', { [F]: 'passed' })]),
];
const target: MaterializedRepo = {
  repo: API,
  name: 'api',
  report: { repo: API, url: 'https://example.test/acme/api.git', base: { ref: 'main', sha: 'a'.repeat(40) } },
};
const context: MaterializedRepo = {
  repo: 'acme/docs',
  name: 'docs',
  report: {
    repo: 'acme/docs',
    url: 'https://example.test/acme/docs.git',
    base: { ref: 'v1', sha: 'b'.repeat(40) },
  },
};

function input(over: Partial<ReportStepInput> = {}): ReportStepInput {
  const grading = { plan, runs, groups: [{ name: 'api' }], infraErrors: [] };
  return {
    name: 'case',
    startedAt: Date.UTC(2026, 0, 1),
    finishedAt: Date.UTC(2026, 0, 1) + 4200,
    sandbox: 'docker',
    suite: { name: 'suite', image: 'img' },
    suiteHash: 'h',
    imageId: 'sha256:1',
    plan,
    options: { matrix: 'auto', reruns: 0 },
    repos: { targets: [target], context: [context] },
    grading,
    graded: grade(grading),
    leakFilter: NO_LEAK_FILTER,
    ...over,
  };
}

describe('report step', () => {
  it('builds a valid report of the graded evaluation and what it ran on', () => {
    const r = reportStep(input());
    expect(reportSchema.parse(r)).toEqual(r);
    expect(r).toMatchObject({
      name: 'case',
      createdAt: '2026-01-01T00:00:00.000Z',
      durationMs: 4200,
      suite: { name: 'suite', hash: 'h', image: 'img', imageId: 'sha256:1' },
      matrix: { requested: 'auto', mode: 'full', reruns: 0, planned: ['base', 'full'] },
      context: [{ repo: 'acme/docs', ref: 'v1', sha: 'b'.repeat(40) }],
      outcome: 'resolved',
    });
    expect(r).not.toHaveProperty('partial');
  });

  it('carries the raw runs of a share of the matrix for combining', () => {
    const r = reportStep(
      input({ options: { matrix: 'full', reruns: 0, only: ['full'], shardLabel: '2/2' } }),
    );
    expect(r.partial).toEqual({ shard: '2/2', runs, groups: [{ name: 'api' }] });
  });

  it('passes the leak filter: a hidden line in a test message never leaves', () => {
    const secret = 'expect(hiddenOracle()).toBe(42) // the hidden assertion';
    const leaky = [runs[0]!, run(plan.configurations[1]!, [reportedGroup('api', { [F]: 'failed' })])];
    leaky[1]!.groups[0]!.tests[0]!.message = `boom at ${secret}`;
    const grading = { plan, runs: leaky, groups: [{ name: 'api' }], infraErrors: [] };
    const filter = new LeakFilter([{ path: 'hidden/api.test.js', content: `${secret}\n` }]);
    const r = reportStep(input({ grading, graded: grade(grading), leakFilter: filter }));
    expect(JSON.stringify(r)).not.toContain(secret);
  });
});
