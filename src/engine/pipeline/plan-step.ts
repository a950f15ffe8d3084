/**
 * Pipeline step 1, plan: the matrix of configurations (core/matrix-plan.ts), the share this
 * evaluation runs (`only`: a shard or a chosen few), and the attempts (the full configuration once
 * more per rerun). Pure.
 */
import type { EvaluationEvent } from '../../core/evaluation-event.ts';
import { type MatrixPlan, type PlannedConfiguration, planMatrix } from '../../core/matrix-plan.ts';
import type { EvaluationOptions } from '../evaluate-api.ts';

export interface PlannedAttempt {
  configuration: PlannedConfiguration;
  /** 0 for the first run, k for the k-th rerun of the full configuration. */
  attempt: number;
}

export interface EvaluationPlan {
  plan: MatrixPlan;
  /** The planned configurations this evaluation runs, in plan order. */
  wanted: PlannedConfiguration[];
  attempts: PlannedAttempt[];
}

export function planStep(
  targets: readonly string[],
  options: Pick<EvaluationOptions, 'matrix' | 'only' | 'reruns'>,
): EvaluationPlan {
  const plan = planMatrix(targets, options.matrix);
  const only = options.only;
  const wanted = only ? plan.configurations.filter((c) => only.includes(c.id)) : plan.configurations;
  const attempts = wanted.flatMap((configuration) =>
    Array.from({ length: configuration.role === 'full' ? 1 + options.reruns : 1 }, (_, attempt) => ({
      configuration,
      attempt,
    })),
  );
  return { plan, wanted, attempts: verdictFirst(attempts) };
}

/** The attempts that decide the verdict: the all-base run (it classifies) and the first full run. */
export const decidesVerdict = (a: PlannedAttempt) =>
  a.configuration.role === 'base' || (a.configuration.role === 'full' && a.attempt === 0);

/**
 * The verdict first, the matrix after: the all-base run (it classifies the tests when the suite
 * has no lists) and the first run of `full` take the first slots, so their `configuration-done`
 * events — the verdict — come as early as one configuration's time; the partial configurations
 * and the reruns follow. Run order only: the plan, `wanted` and the report keep plan order.
 */
function verdictFirst(attempts: PlannedAttempt[]): PlannedAttempt[] {
  const rank = (a: PlannedAttempt) => (decidesVerdict(a) ? (a.configuration.role === 'base' ? 0 : 1) : 2);
  return [...attempts].sort((a, b) => rank(a) - rank(b));
}

export function planEvent(p: EvaluationPlan): EvaluationEvent {
  return {
    type: 'plan',
    configurations: p.wanted.map((c) => ({ id: c.id, applied: c.applied })),
    mode: p.plan.mode,
  };
}
