/**
 * The workers' answers graded into one report. A worker is trusted to run the sandbox, not to
 * say what it was asked: each stored answer is checked before it is believed — its size measured
 * by PostgreSQL, its outcome and report parsed with zod, a report believed only when stored under
 * the claim of the job that ran it and when it is a partial report of exactly that configuration
 * (its applied states, one first attempt) of this change (name, suite, matrix, repositories and
 * their URLs),
 * with only the suite's groups in it. One that fails a check, or a configuration a worker could
 * not run, becomes that configuration's infrastructure error, never a verdict. The runs are then
 * graded once, as `tandem combine` grades shards, with the App's own grading inputs (the suite's
 * groups and fail-to-pass / pass-to-pass lists, never the worker's), so the report is the one a
 * local evaluation of the same change gives.
 */
import { urlWithoutCredentials } from '../../core/credentials.ts';
import { InfraError } from '../../core/errors.ts';
import type { MatrixMode } from '../../core/matrix-mode.ts';
import type { PlannedConfiguration } from '../../core/matrix-plan.ts';
import { repoKey } from '../../core/repo-name.ts';
import { type Report, reportSchema } from '../../core/report.schema.ts';
import type { ConfigurationRun, InfraErrorInfo } from '../../core/run.schema.ts';
import { combineShardReports } from '../../core/shard-combine.ts';
import type { Suite } from '../../core/suite.schema.ts';
import { groupOfTestId } from '../../core/test-id.ts';
import { MAX_RESULT_BYTES, workerOutcomeSchema } from '../../core/worker-job.schema.ts';
import type { StoredResult } from '../../engine/workers/worker-tables.ts';

/** One configuration's answer: its partial report, or the error that stands in for its run. */
export type CheckedResult = { report: Report } | { error: InfraErrorInfo };

/** What the App asked for: the change the answers must be of. */
export interface ExpectedChange {
  name: string;
  suite: Pick<Suite, 'name' | 'tests' | 'fail_to_pass' | 'pass_to_pass'>;
  matrix: MatrixMode;
  /** The repositories with their clone URLs (a report names them without credentials). */
  targets: ReadonlyArray<{ repo: string; url: string }>;
  context: ReadonlyArray<{ repo: string; url: string }>;
}

/** A worker's infrastructure message, as long as the App quotes one (a report's comment escapes it). */
const MAX_MESSAGE_CHARS = 2_000;
const MAX_FILES = 50;

export function checkResult(
  r: StoredResult,
  planned: PlannedConfiguration,
  expected: ExpectedChange,
): CheckedResult {
  const id = planned.id;
  if (r.outcome === undefined) return infra(`the worker's answer for ${id} is over its size cap`);
  const outcome = workerOutcomeSchema.safeParse(r.outcome);
  if (!outcome.success) return infra(`the worker's answer for ${id} is not in the expected form`);
  if (outcome.data.kind === 'infra') return { error: bounded(outcome.data.error) };
  if (!r.bound) return infra(`a report for ${id} was not stored under the claim of the job that ran it`);
  if (r.reportBytes > MAX_RESULT_BYTES)
    return infra(
      `the worker's report for ${id} is ${r.reportBytes} bytes, over the ${MAX_RESULT_BYTES}-byte cap`,
    );
  let raw: unknown;
  try {
    raw = JSON.parse(r.report ?? '');
  } catch {
    return infra(`the worker's report for ${id} is not JSON`);
  }
  const parsed = reportSchema.safeParse(raw);
  if (!parsed.success || !parsed.data.partial)
    return infra(`the worker's report for ${id} is not a partial Tandem report`);
  const report = parsed.data;
  const wrong = otherChange(report, expected);
  if (wrong) return infra(`the worker's report for ${id} is of another ${wrong}`);
  const runs = report.partial!.runs;
  const run = runs[0];
  if (runs.length !== 1 || run?.id !== id || run.attempt !== 0)
    return infra(`the worker's report for ${id} holds other configurations`);
  if (!sameSet(run.applied, planned.applied))
    return infra(`the worker's report for ${id} ran other states than that configuration's`);
  const groups = new Set(expected.suite.tests.map((t) => t.name));
  const foreign = run.groups.some(
    (g) => !groups.has(g.name) || g.tests.some((t) => groupOfTestId(t.id) !== g.name),
  );
  if (foreign) return infra(`the worker's report for ${id} holds test groups the suite does not have`);
  // The grading inputs are the App's own, whatever the worker wrote.
  const s = expected.suite;
  return {
    report: {
      ...report,
      partial: {
        shard: id,
        runs: [run],
        groups: s.tests.map((g) => ({ name: g.name, ...(g.repo ? { repo: g.repo } : {}) })),
        ...(s.fail_to_pass ? { failToPass: s.fail_to_pass } : {}),
        ...(s.pass_to_pass ? { passToPass: s.pass_to_pass } : {}),
      },
    },
  };
}

/** What of the change a report is not (undefined: it is this change's). */
function otherChange(report: Report, expected: ExpectedChange): string | undefined {
  if (report.name !== expected.name) return 'change (its name)';
  if (report.suite.name !== expected.suite.name) return 'suite';
  if (report.matrix.requested !== expected.matrix || report.matrix.reruns !== 0) return 'matrix';
  // Repositories and the URLs the report shows for them: the App's own, credentials left out.
  const repos = (xs: ReadonlyArray<{ repo: string; url: string }>, scrub: boolean) =>
    JSON.stringify(xs.map((x) => [repoKey(x.repo), scrub ? urlWithoutCredentials(x.url) : x.url]));
  if (repos(report.targets, false) !== repos(expected.targets, true)) return 'change (its repositories)';
  if (repos(report.context, false) !== repos(expected.context, true))
    return 'change (its context repositories)';
  return undefined;
}

const sameSet = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && [...a].sort().join('\n') === [...b].sort().join('\n');

/** A worker's infrastructure error, capped (its text is the worker's, so the App bounds it). */
function bounded(e: InfraErrorInfo): InfraErrorInfo {
  const cap = (s: string) => (s.length > MAX_MESSAGE_CHARS ? `${s.slice(0, MAX_MESSAGE_CHARS - 1)}…` : s);
  return {
    kind: e.kind,
    message: cap(e.message),
    ...(e.target ? { target: cap(e.target) } : {}),
    ...(e.files ? { files: e.files.slice(0, MAX_FILES).map(cap) } : {}),
  };
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

/** What must agree across the partial reports of one plan (as `tandem combine` requires). */
const planKey = (r: Report) =>
  JSON.stringify([
    r.name,
    r.suite.hash,
    r.suite.imageId,
    r.matrix.requested,
    r.targets.map((t) => [t.repo, t.base.sha, t.head?.sha]),
  ]);

/** Grades the checked answers, one per planned configuration, into the evaluation's report. */
export function gradeWorkerResults(
  planned: readonly PlannedConfiguration[],
  results: ReadonlyMap<string, CheckedResult>,
): Report {
  const partials: Array<{ file: string; report: Report }> = [];
  const failed: ConfigurationRun[] = [];
  for (const c of planned) {
    const r = results.get(c.id);
    const first = partials[0]?.report;
    if (r && 'report' in r && (!first || planKey(first) === planKey(r.report)))
      partials.push({ file: `worker result ${c.id}`, report: r.report });
    else
      failed.push(
        failedRun(
          c,
          r && 'error' in r
            ? r.error
            : r
              ? { kind: 'engine', message: `the report for ${c.id} evaluated other commits or another image` }
              : { kind: 'engine', message: 'no worker answered' },
        ),
      );
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
