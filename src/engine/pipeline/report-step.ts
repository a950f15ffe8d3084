/**
 * Pipeline step 6, report: the graded evaluation as the report model (core/report.schema.ts),
 * with what it ran on (tool, suite, image, matrix, states) and, for a share of the matrix, the raw
 * runs `tandem combine` re-grades. The report may leave the evaluator, so it passes the suite's
 * leak filter: no hidden path or line gets through. Pure.
 */
import type { Grade } from '../../core/grade.schema.ts';
import type { GradingInput } from '../../core/grading.ts';
import type { LeakFilter } from '../../core/leak-filter.ts';
import type { MatrixPlan } from '../../core/matrix-plan.ts';
import { REPORT_SCHEMA_VERSION, type Report } from '../../core/report.schema.ts';
import type { Suite } from '../../core/suite.schema.ts';
import type { EvaluationOptions } from '../evaluate-api.ts';
import type { MaterializedRepo } from '../git/workspace-states.ts';
import { TOOL_VERSION } from '../version.ts';

export interface ReportStepInput {
  name: string;
  startedAt: number;
  finishedAt: number;
  sandbox: Report['sandbox'];
  suite: Pick<Suite, 'name' | 'image'>;
  suiteHash: string;
  imageId: string;
  plan: MatrixPlan;
  options: Pick<EvaluationOptions, 'matrix' | 'reruns' | 'only' | 'shardLabel'>;
  repos: { targets: MaterializedRepo[]; context: MaterializedRepo[] };
  grading: GradingInput;
  graded: Grade;
  leakFilter: LeakFilter;
}

export function reportStep(r: ReportStepInput): Report {
  const { grading } = r;
  const lists = {
    ...(grading.failToPass ? { failToPass: grading.failToPass } : {}),
    ...(grading.passToPass ? { passToPass: grading.passToPass } : {}),
  };
  const isPartial = r.options.only !== undefined;
  return r.leakFilter.value<Report>({
    schemaVersion: REPORT_SCHEMA_VERSION,
    tool: { name: 'tandem', version: TOOL_VERSION },
    name: r.name,
    createdAt: new Date(r.startedAt).toISOString(),
    durationMs: r.finishedAt - r.startedAt,
    sandbox: r.sandbox,
    suite: { name: r.suite.name, hash: r.suiteHash, image: r.suite.image, imageId: r.imageId },
    matrix: {
      requested: r.options.matrix,
      mode: r.plan.mode,
      reruns: r.options.reruns,
      planned: r.plan.configurations.map((c) => c.id),
    },
    targets: r.repos.targets.map((t) => t.report),
    context: r.repos.context.map((c) => ({
      repo: c.repo,
      url: c.report.url,
      ref: c.report.base.ref ?? '',
      sha: c.report.base.sha,
    })),
    ...r.graded,
    ...(isPartial
      ? {
          partial: {
            shard: r.options.shardLabel ?? 'custom',
            runs: grading.runs,
            groups: grading.groups,
            ...lists,
          },
        }
      : {}),
  });
}
