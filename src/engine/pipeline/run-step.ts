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
import { decidesVerdict, type PlannedAttempt } from './plan-step.ts';
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
  // The verdict first: the other configurations ask for a run slot only once the deciding ones
  // have asked (or failed before asking), even when their own states are ready sooner.
  let waiting = attempts.filter(decidesVerdict).length;
  let verdictAsked!: () => void;
  const verdictFirst = new Promise<void>((resolve) => {
    verdictAsked = resolve;
  });
  const asked = () => {
    waiting -= 1;
    if (waiting <= 0) verdictAsked();
  };
  if (waiting === 0) verdictAsked();
  return Promise.all(
    attempts.map((a) =>
      ctx.slots.ahead(async () => {
        const { configuration: c, attempt } = a;
        const deciding = decidesVerdict(a);
        let job: Awaited<ReturnType<StatePreparer['jobFor']>>;
        try {
          if (ctx.signal?.aborted) throw new InfraError('aborted', 'the evaluation was interrupted');
          ctx.emit({ type: 'configuration-start', id: c.id, attempt });
          job = await ctx.states.jobFor(c, attempt);
        } catch (e) {
          if (deciding) asked();
          throw e;
        }
        if (!deciding) await verdictFirst;
        const slot = holdSlot(ctx.slots.slots);
        if (deciding) asked();
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
