/**
 * Pipeline step 4, collect: each configuration's result files were taken and parsed as it ran
 * (results/collect-results.ts); this step gathers the runs with everything else grading reads —
 * the plan, the test groups and their repositories, the suite's lists, and the infrastructure
 * errors of states no configuration reached — into one grading input. Pure.
 */
import type { GradingInput } from '../../core/grading.ts';
import type { MatrixPlan } from '../../core/matrix-plan.ts';
import type { ConfigurationRun } from '../../core/run.schema.ts';
import type { Suite } from '../../core/suite.schema.ts';
import type { MaterializedRepo } from '../git/workspace-states.ts';

export function collectStep(
  plan: MatrixPlan,
  runs: ConfigurationRun[],
  suite: Pick<Suite, 'tests' | 'fail_to_pass' | 'pass_to_pass'>,
  repos: { targets: MaterializedRepo[]; context: MaterializedRepo[] },
): GradingInput {
  return {
    plan,
    runs,
    groups: suite.tests.map((g) => ({ name: g.name, ...(g.repo ? { repo: g.repo } : {}) })),
    ...(suite.fail_to_pass ? { failToPass: suite.fail_to_pass } : {}),
    ...(suite.pass_to_pass ? { passToPass: suite.pass_to_pass } : {}),
    infraErrors: [...repos.targets, ...repos.context].flatMap((r) => (r.error ? [r.error] : [])),
  };
}
