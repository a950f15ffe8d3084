/**
 * Evaluates one candidate change of one instance: every repository at (base + test patch) or at
 * (base + its candidate patch + test overlay), through the engine like any case. A patch that
 * does not apply is reported, not run; machinery errors are retried a bounded number of times.
 */

import type { RepoApply } from '../core/bench-report.schema.ts';
import { InfraError } from '../core/errors.ts';
import type { MatrixMode } from '../core/matrix-mode.ts';
import { planMatrix } from '../core/matrix-plan.ts';
import type { Report } from '../core/report.schema.ts';
import type { ConfigurationRun } from '../core/run.schema.ts';
import { evaluate } from '../engine/evaluate.ts';
import type { EvaluationInput, EvaluationOptions } from '../engine/evaluate-api.ts';
import type { BenchStates } from './bench-states.ts';
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
      /** The raw runs (every configuration and attempt), for list derivation. */
      runs: ConfigurationRun[];
      outputs: GroupOutput[];
      attempts: number;
    };

/** `patches[repo]`: the candidate diff for that repository; absent or '' leaves it at base. */
export async function evaluateCandidate(
  loaded: LoadedInstance,
  patches: Record<string, string>,
  matrix: BenchMatrix,
  ctx: CandidateContext,
  extra: { reruns?: number } = {},
): Promise<CandidateResult> {
  const { instance } = loaded;
  const apply: RepoApply[] = [];
  const heads: Array<{ repo: string; url: string; base: string; head: string }> = [];
  for (const r of instance.repos) {
    const patch = patches[r.repo] ?? '';
    let base: string;
    try {
      base = await ctx.states.testBase(r);
    } catch (err) {
      if (err instanceof InfraError && err.kind === 'patch-failed') {
        return { kind: 'injection-failed', apply, message: err.message };
      }
      return { kind: 'error', apply, errors: [(err as Error).message], attempts: 1 };
    }
    let state: Awaited<ReturnType<BenchStates['candidate']>>;
    try {
      state = await ctx.states.candidate(r, patch);
    } catch (err) {
      return { kind: 'error', apply, errors: [(err as Error).message], attempts: 1 };
    }
    const changed = patch.trim() !== '';
    if (!state.ok) {
      apply.push({ repo: r.repo, changed, applied: false, message: state.message, files: state.files });
      continue;
    }
    apply.push({ repo: r.repo, changed, applied: true, ...(state.method ? { method: state.method } : {}) });
    heads.push({ repo: r.repo, url: await ctx.states.storeFor(r), base, head: state.sha });
  }
  if (apply.some((a) => !a.applied)) return { kind: 'not-applied', apply };

  const input: EvaluationInput = {
    caseFile: {
      name: instance.instance_id,
      targets: heads.map((h) => ({ ...h, merge: false })),
      context: instance.context.map((c) => ({ repo: c.repo, url: c.url, ref: c.commit })),
    },
    suite: {
      ...loaded.suite,
      ...(instance.FAIL_TO_PASS ? { fail_to_pass: instance.FAIL_TO_PASS } : {}),
      ...(instance.PASS_TO_PASS ? { pass_to_pass: instance.PASS_TO_PASS } : {}),
    },
    suiteDir: loaded.suiteDir,
    caseDir: loaded.suiteDir,
  };
  const hasLists = input.suite.fail_to_pass !== undefined && input.suite.pass_to_pass !== undefined;
  const engineMatrix: MatrixMode = matrix === 'full' ? 'full' : 'leave-one-out';
  const only = matrix === 'none' ? (hasLists ? ['full'] : ['base', 'full']) : undefined;
  const errors: string[] = [];
  for (let attempt = 1; ; attempt++) {
    let report: Report;
    try {
      // `only` always set: a partial report carries the raw runs, whose group outputs are kept.
      report = await evaluate(input, {
        ...ctx.engine,
        reruns: extra.reruns ?? ctx.engine.reruns,
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
      errors.push((err as Error).message);
      if (attempt > ctx.retries) return { kind: 'error', apply, errors, attempts: attempt };
      continue;
    }
    if (report.outcome === 'error') {
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
    return {
      kind: 'ran',
      apply,
      report: rest as Report,
      runs: report.partial?.runs ?? [],
      outputs,
      attempts: attempt,
    };
  }
}
