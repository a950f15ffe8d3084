/**
 * The workers' answers graded into one report: each stored result is checked before it is
 * believed (its size measured by PostgreSQL, its outcome and report parsed with zod, the report a
 * partial one for exactly that configuration); one that fails a check, or a configuration a
 * worker could not run, becomes that configuration's infrastructure error. The partial reports'
 * raw runs are then graded once, as `tandem combine` grades shards, so the report is the one a
 * local evaluation of the same change gives.
 */
import { InfraError } from '../../core/errors.ts';
import type { PlannedConfiguration } from '../../core/matrix-plan.ts';
import { type Report, reportSchema } from '../../core/report.schema.ts';
import type { ConfigurationRun, InfraErrorInfo } from '../../core/run.schema.ts';
import { combineShardReports } from '../../core/shard-combine.ts';
import { MAX_RESULT_BYTES, workerOutcomeSchema } from '../../core/worker-job.schema.ts';
import type { StoredResult } from '../../engine/workers/worker-tables.ts';

/** One configuration's answer: its partial report, or the error that stands in for its run. */
export type CheckedResult = { report: Report } | { error: InfraErrorInfo };

export function checkResult(r: StoredResult): CheckedResult {
  const outcome = workerOutcomeSchema.safeParse(r.outcome);
  if (!outcome.success)
    return infra(`the worker's answer for ${r.configuration} is not in the expected form`);
  if (outcome.data.kind === 'infra') return { error: outcome.data.error };
  if (r.reportBytes > MAX_RESULT_BYTES)
    return infra(
      `the worker's report for ${r.configuration} is ${r.reportBytes} bytes, over the ${MAX_RESULT_BYTES}-byte cap`,
    );
  let raw: unknown;
  try {
    raw = JSON.parse(r.report ?? '');
  } catch {
    return infra(`the worker's report for ${r.configuration} is not JSON`);
  }
  const report = reportSchema.safeParse(raw);
  if (!report.success) return infra(`the worker's report for ${r.configuration} is not a Tandem report`);
  const runs = report.data.partial?.runs ?? [];
  if (runs.length === 0 || runs.some((run) => run.id !== r.configuration))
    return infra(`the worker's report for ${r.configuration} holds other configurations`);
  return { report: report.data };
}

function infra(message: string): { error: InfraErrorInfo } {
  return { error: { kind: 'engine', message } };
}

/** The run that stands for a configuration no worker could run: its infrastructure error. */
export function failedRun(c: PlannedConfiguration, error: InfraErrorInfo): ConfigurationRun {
  return {
    id: c.id,
    applied: c.applied,
    attempt: 0,
    setup: [],
    groups: [],
    cached: false,
    durationMs: 0,
    infraError: { ...error, configuration: c.id },
  };
}

/** The runs an answer stands for, as progress events judge them. */
export function runsOf(c: PlannedConfiguration, r: CheckedResult): ConfigurationRun[] {
  return 'report' in r ? (r.report.partial?.runs ?? []) : [failedRun(c, r.error)];
}

/** Grades the checked answers, one per planned configuration, into the evaluation's report. */
export function gradeWorkerResults(
  planned: readonly PlannedConfiguration[],
  results: ReadonlyMap<string, CheckedResult>,
): Report {
  const partials: Array<{ file: string; report: Report }> = [];
  const failed: ConfigurationRun[] = [];
  for (const c of planned) {
    const r = results.get(c.id);
    if (r && 'report' in r) partials.push({ file: `worker result ${c.id}`, report: r.report });
    else failed.push(failedRun(c, r?.error ?? { kind: 'engine', message: 'no worker answered' }));
  }
  const first = partials[0];
  if (!first) {
    const error = failed[0]?.infraError;
    throw new InfraError(error?.kind ?? 'engine', error?.message ?? 'no configuration ran on a worker');
  }
  // The failed configurations join as one more share of the same plan.
  if (failed.length > 0)
    partials.push({
      file: 'worker errors',
      report: { ...first.report, partial: { ...first.report.partial!, runs: failed } },
    });
  return combineShardReports(partials);
}
