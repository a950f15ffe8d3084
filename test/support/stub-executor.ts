/**
 * An executor without an engine, for the App's load and crash tests: it answers every linked
 * change at once with a report graded the engine's way (`planMatrix` + `grade`): one hidden test
 * that fails until every target is applied, so each set is resolved and jointly necessary.
 * Importable outside vitest (the App child process and `perf/` use it).
 */

import type { Executor, LinkedChangeSpec } from '../../src/app/executors/executor.ts';
import { grade } from '../../src/core/grading.ts';
import { planMatrix } from '../../src/core/matrix-plan.ts';
import { REPORT_SCHEMA_VERSION, type Report } from '../../src/core/report.schema.ts';
import type { ConfigurationRun } from '../../src/core/run.schema.ts';

/**
 * How the full configuration (every target applied) of a linked change comes out: `fail` fails
 * the joint test there; `flaky` reports it as replicates that differed (passed, then failed),
 * which leaves the change unresolved. The other configurations are graded as always.
 */
export type StubVerdict = 'pass' | 'fail' | 'flaky';

export class StubExecutor implements Executor {
  /** How many linked changes it was handed. */
  runs = 0;
  /** Every spec it was handed, in order. */
  readonly specs: LinkedChangeSpec[] = [];

  /** `decide`: the verdict for each spec (default: every change passes). */
  constructor(private readonly decide?: (spec: LinkedChangeSpec) => StubVerdict | Promise<StubVerdict>) {}

  async run(spec: LinkedChangeSpec): Promise<Report> {
    this.runs += 1;
    this.specs.push(spec);
    return stubReport(spec, this.decide ? await this.decide(spec) : 'pass');
  }
}

export function stubReport(spec: LinkedChangeSpec, verdict: StubVerdict = 'pass'): Report {
  const targets = spec.targets.map((t) => t.repo);
  const plan = planMatrix(targets, spec.matrix);
  const runs: ConfigurationRun[] = plan.configurations.map((c) => {
    const pass = c.applied.length === targets.length && verdict === 'pass';
    return {
      id: c.id,
      applied: c.applied,
      attempt: 0,
      setup: [],
      groups: [
        {
          name: 'joint',
          status: 'reported',
          exitCode: pass ? 0 : 1,
          durationMs: 1,
          tests: [{ id: 'joint::works', status: pass ? 'passed' : 'failed' }],
        },
      ],
      cached: false,
      durationMs: 1,
    };
  });
  const graded = grade({ plan, runs, groups: [{ name: 'joint' }] });
  const flaky = verdict === 'flaky' ? [{ id: 'joint::works', statuses: ['passed', 'failed'] }] : graded.flaky;
  return {
    ...graded,
    flaky,
    schemaVersion: REPORT_SCHEMA_VERSION,
    tool: { name: 'tandem', version: '0.0.0-stub' },
    name: spec.name,
    createdAt: new Date().toISOString(),
    durationMs: 1,
    sandbox: 'process',
    suite: { name: spec.suite.name, hash: 'sha256:stub', image: spec.suite.image, imageId: 'sha256:stub' },
    matrix: {
      requested: spec.matrix,
      mode: plan.mode,
      reruns: 0,
      planned: plan.configurations.map((c) => c.id),
    },
    targets: spec.targets.map((t) => ({
      repo: t.repo,
      url: t.url,
      base: { ref: t.base, sha: t.base },
      ...('head' in t ? { head: { ref: t.head, sha: t.head, kind: 'branch' as const } } : {}),
    })),
    context: [],
  };
}
