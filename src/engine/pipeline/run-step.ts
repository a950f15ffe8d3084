/**
 * Pipeline step 3, run: every attempt in a sandbox without network (run-configuration.ts, which
 * also collects each group's result file as it goes). Up to `2 × jobs` configurations get ready
 * at once while `jobs` hold a run slot (run-slots.ts); a batch caller (benchmark mode) hands in
 * its own slots so configurations of many evaluations share one `--jobs` budget.
 */
import pLimit from 'p-limit';
import { InfraError } from '../../core/errors.ts';
import type { EvaluationEvent } from '../../core/evaluation-event.ts';
import type { ConfigurationRun } from '../../core/run.schema.ts';
import type { EvaluationOptions } from '../evaluate-api.ts';
import { type RunContext, runConfiguration } from '../run-configuration.ts';
import { holdSlot, readyAhead } from '../run-slots.ts';
import type { PlannedAttempt } from './plan-step.ts';
import type { RunProgress } from './run-progress.ts';
import type { StatePreparer } from './state-preparer.ts';

type Limit = <T>(fn: () => Promise<T>) => Promise<T>;

/** The run slots (prepares take them too) and the getting-ready limit. */
export interface RunSlots {
  slots: Limit;
  ahead: Limit;
}

export function runSlots(options: Pick<EvaluationOptions, 'slots' | 'jobs'>): RunSlots {
  const own = options.slots ? undefined : pLimit(Math.max(1, options.jobs));
  return {
    slots: options.slots ?? (<T>(fn: () => Promise<T>) => own!(fn)),
    ahead: pLimit(readyAhead(options.jobs)),
  };
}

export interface RunStepContext {
  states: StatePreparer;
  run: RunContext;
  slots: RunSlots;
  progress: RunProgress;
  emit: (e: EvaluationEvent) => void;
  signal?: AbortSignal | undefined;
}

export function runStep(
  attempts: readonly PlannedAttempt[],
  ctx: RunStepContext,
): Promise<ConfigurationRun[]> {
  return Promise.all(
    attempts.map(({ configuration: c, attempt }) =>
      ctx.slots.ahead(async () => {
        if (ctx.signal?.aborted) throw new InfraError('aborted', 'the evaluation was interrupted');
        ctx.emit({ type: 'configuration-start', id: c.id, attempt });
        const job = await ctx.states.jobFor(c, attempt);
        const slot = holdSlot(ctx.slots.slots);
        try {
          const run = await runConfiguration({ ...job, startGate: slot.gate }, ctx.run);
          ctx.progress.done(run);
          return run;
        } finally {
          slot.release();
        }
      }),
    ),
  );
}
