/**
 * A prepare whose commands failed (non-zero exit, timeout, memory kill), as opposed to machinery
 * trouble around it. On a PR's head state, while the base state prepared fine, that is the PR's
 * fault: every configuration applying that head fails with "prepare failed: …" and the output
 * tail, instead of turning into an infrastructure error.
 */
import { InfraError } from '../../core/errors.ts';
import type { PlannedConfiguration } from '../../core/matrix-plan.ts';
import type { ConfigurationRun, StepRun } from '../../core/run.schema.ts';
import type { TestGroup } from '../../core/suite.schema.ts';
import type { PrepareOutcome } from '../sandbox/sandbox.ts';

export class PrepareFailedError extends InfraError {
  readonly step: StepRun;
  constructor(
    readonly repo: string,
    why: string,
    out: PrepareOutcome,
  ) {
    super('prepare', `prepare for ${repo} ${why}:\n${out.outputTail.slice(-2000)}`, { target: repo });
    this.step = {
      name: `prepare:${repo}`,
      exitCode: out.exitCode,
      durationMs: out.durationMs,
      timedOut: out.timedOut,
      oomKilled: out.oomKilled,
      outputTail: out.outputTail,
    };
  }
}

/** The run of a configuration that never started because a head it applies failed to prepare. */
export function failedPrepareRun(
  planned: PlannedConfiguration,
  attempt: number,
  groups: readonly TestGroup[],
  failure: PrepareFailedError,
): ConfigurationRun {
  const reason = `prepare failed: ${failure.message}`;
  return {
    id: planned.id,
    applied: planned.applied,
    attempt,
    setup: [failure.step],
    groups: groups.map((g) => ({
      name: g.name,
      ...(g.repo ? { repo: g.repo } : {}),
      status: 'setup-failed' as const,
      exitCode: null,
      durationMs: 0,
      reason,
      tests: [],
    })),
    cached: false,
    durationMs: 0,
  };
}

/**
 * Waits for every repository state of a configuration. A head whose prepare failed while its
 * base prepared fine comes back as `failure` (the configuration fails); any other trouble, a
 * base's failed prepare included, rejects with that error (infrastructure).
 */
export async function settleStates<T>(
  states: Array<{ state: Promise<T>; base?: Promise<T> | undefined }>,
): Promise<{ states: T[] } | { failure: PrepareFailedError }> {
  const settled = await Promise.allSettled(states.map((s) => s.state));
  let headFailure: PrepareFailedError | undefined;
  for (const [i, s] of settled.entries()) {
    if (s.status === 'fulfilled') continue;
    const base = states[i]!.base;
    const baseOk = base
      ? await base.then(
          () => true,
          () => false,
        )
      : false;
    if (s.reason instanceof PrepareFailedError && baseOk) headFailure ??= s.reason;
    else throw s.reason;
  }
  if (headFailure) return { failure: headFailure };
  return { states: settled.map((s) => (s as PromiseFulfilledResult<T>).value) };
}
