/**
 * Evaluates one candidate change of one instance: every repository at (base + test patch) or at
 * (base + its candidate patch + test overlay), through the engine like any case. A patch that
 * does not apply is reported, not run; machinery errors are retried a bounded number of times.
 *
 * The engine runs the suite without the instance's lists (and without `dataset_names`): what a
 * configuration does never depends on them, so its cached result is shared by every grading of
 * it — `bench run --predictions gold` after `validate` reuses validation's gold runs. The lists
 * are applied by gradeCandidate, in the dataset's own test names.
 */

import type { InstanceRepo } from '../core/bench-instance.schema.ts';
import type { RepoApply } from '../core/bench-report.schema.ts';
import { mapRunsToDatasetNames } from '../core/dataset-names.ts';
import { errorText } from '../core/error-text.ts';
import { InfraError } from '../core/errors.ts';
import type { MatrixMode } from '../core/matrix-mode.ts';
import { planMatrix } from '../core/matrix-plan.ts';
import type { Report } from '../core/report.schema.ts';
import type { ConfigurationRun } from '../core/run.schema.ts';
import type { Suite } from '../core/suite.schema.ts';
import { evaluate } from '../engine/evaluate.ts';
import type { EvaluationInput, EvaluationOptions } from '../engine/evaluate-api.ts';
import type { BenchStates } from './bench-states.ts';
import { type BenchGrade, gradeCandidate, instanceLists, namedGroups } from './grade-candidate.ts';
import type { LoadedInstance } from './instances-file.ts';

/** `none`: only the full configuration (plus all-base when the instance has no test lists). */
export type BenchMatrix = 'none' | 'leave-one-out' | 'full';

export interface CandidateContext {
  states: BenchStates;
  /** Engine options; `matrix` and `only` are set per candidate. */
  engine: Omit<EvaluationOptions, 'matrix' | 'only'>;
  /** Extra attempts after an infrastructure error. */
  retries: number;
}

export interface GroupOutput {
  configuration: string;
  attempt: number;
  group: string;
  output: string;
}

export type CandidateResult =
  | { kind: 'not-applied'; apply: RepoApply[] }
  | { kind: 'injection-failed'; apply: RepoApply[]; message: string }
  | { kind: 'error'; apply: RepoApply[]; errors: string[]; attempts: number; report?: Report }
  | {
      kind: 'ran';
      apply: RepoApply[];
      report: Report;
      /** The runs (every configuration and attempt), test ids in the dataset's names. */
      runs: ConfigurationRun[];
      /** The runs as the engine gave them: stored, so `bench regrade` can grade them again. */
      rawRuns: ConfigurationRun[];
      outputs: GroupOutput[];
      attempts: number;
      grade: Omit<BenchGrade, 'report'>;
    };

/** `patches[repo]`: the candidate diff for that repository; absent or '' leaves it at base. */
export async function evaluateCandidate(
  loaded: LoadedInstance,
  patches: Record<string, string>,
  matrix: BenchMatrix,
  ctx: CandidateContext,
  /** `reruns`: extra runs of the full configuration; `attempts`: grade each run on its own. */
  extra: { reruns?: number; attempts?: number } = {},
): Promise<CandidateResult> {
  const { instance } = loaded;
  const apply: RepoApply[] = [];
  const heads: Array<{ repo: string; url: string; base: string; head: string }> = [];
  // Every repository's states at once: a prediction's first configuration waits for the slowest.
  const made = await Promise.all(instance.repos.map((r) => repoState(r, patches[r.repo] ?? '', ctx.states)));
  for (const m of made) {
    if (m.kind === 'injection-failed') return { kind: 'injection-failed', apply, message: m.message };
    if (m.kind === 'error') return { kind: 'error', apply, errors: [m.message], attempts: 1 };
    apply.push(m.apply);
    if (m.head) heads.push(m.head);
  }
  if (apply.some((a) => !a.applied)) return { kind: 'not-applied', apply };

  const input: EvaluationInput = {
    caseFile: {
      name: instance.instance_id,
      targets: heads.map((h) => ({ ...h, merge: false })),
      context: instance.context.map((c) => ({ repo: c.repo, url: c.url, ref: c.commit })),
    },
    suite: engineSuite(loaded.suite),
    suiteDir: loaded.suiteDir,
    caseDir: loaded.suiteDir,
  };
  const lists = instanceLists(loaded);
  const hasLists = lists.failToPass !== undefined && lists.passToPass !== undefined;
  const engineMatrix: MatrixMode = matrix === 'full' ? 'full' : 'leave-one-out';
  const only = matrix === 'none' ? (hasLists ? ['full'] : ['base', 'full']) : undefined;
  const errors: string[] = [];
  for (let attempt = 1; ; attempt++) {
    let report: Report;
    try {
      // `only` always set: a partial report carries the raw runs, whose group outputs are kept.
      report = await evaluate(input, {
        ...ctx.engine,
        reruns: Math.max(extra.reruns ?? ctx.engine.reruns ?? 0, (extra.attempts ?? 1) - 1),
        matrix: engineMatrix,
        only:
          only ??
          planMatrix(
            heads.map((h) => h.repo),
            engineMatrix,
          ).configurations.map((c) => c.id),
      });
    } catch (err) {
      if (ctx.engine.signal?.aborted) throw err;
      errors.push(errorText(err));
      if (attempt > ctx.retries) return { kind: 'error', apply, errors, attempts: attempt };
      continue;
    }
    // Without lists the engine cannot classify a lone full run; only machinery failures count here.
    const fullRan = (report.partial?.runs ?? []).some((r) => r.id === 'full' && !r.infraError);
    if (report.infraErrors.length > 0 || !fullRan) {
      errors.push(report.summary, ...report.infraErrors.map((e) => `${e.kind}: ${e.message}`));
      if (attempt > ctx.retries) return { kind: 'error', apply, errors, attempts: attempt, report };
      continue;
    }
    const outputs: GroupOutput[] = (report.partial?.runs ?? []).flatMap((run) =>
      run.groups.map((g) => ({
        configuration: run.id,
        attempt: run.attempt,
        group: g.name,
        output: g.outputTail ?? '',
      })),
    );
    const { partial: _runs, ...rest } = report;
    const rawRuns = report.partial?.runs ?? [];
    const { report: graded, ...grade } = gradeCandidate({
      report: rest as Report,
      runs: rawRuns,
      suite: loaded.suite,
      lists,
      attempts: extra.attempts ?? 1,
    });
    return {
      kind: 'ran',
      apply,
      report: graded,
      runs: mapRunsToDatasetNames(rawRuns, namedGroups(loaded.suite)),
      rawRuns,
      outputs,
      attempts: attempt,
      grade,
    };
  }
}

type RepoState =
  | { kind: 'made'; apply: RepoApply; head?: { repo: string; url: string; base: string; head: string } }
  | { kind: 'injection-failed'; message: string }
  | { kind: 'error'; message: string };

/** One repository's test base and candidate state (a patch that does not apply is recorded). */
async function repoState(r: InstanceRepo, patch: string, states: BenchStates): Promise<RepoState> {
  let base: string;
  try {
    base = await states.testBase(r);
  } catch (err) {
    if (err instanceof InfraError && err.kind === 'patch-failed')
      return { kind: 'injection-failed', message: err.message };
    return { kind: 'error', message: errorText(err) };
  }
  let state: Awaited<ReturnType<BenchStates['candidate']>>;
  try {
    state = await states.candidate(r, patch);
  } catch (err) {
    return { kind: 'error', message: errorText(err) };
  }
  const changed = patch.trim() !== '';
  if (!state.ok) {
    return {
      kind: 'made',
      apply: { repo: r.repo, changed, applied: false, message: state.message, files: state.files },
    };
  }
  return {
    kind: 'made',
    apply: { repo: r.repo, changed, applied: true, ...(state.method ? { method: state.method } : {}) },
    head: { repo: r.repo, url: await states.storeFor(r), base, head: state.sha },
  };
}

/** The suite as the engine runs it: nothing that only grading reads. */
export function engineSuite(suite: Suite): Suite {
  const { fail_to_pass: _f, pass_to_pass: _p, ...rest } = suite;
  return { ...rest, tests: rest.tests.map(({ dataset_names: _n, ...g }) => g) };
}
