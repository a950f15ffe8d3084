/**
 * The engine's public entry, shared by the CLI, the App and the Action. Nothing in the engine
 * prints: progress goes out as events.
 */

import type { EvaluationEvent } from '../core/evaluation-event.ts';
import type { ChangeSpec, RequestOptions } from '../core/evaluation-request.schema.ts';
import type { Report } from '../core/report.schema.ts';

/** The change to evaluate: the case with its suite resolved (see core/evaluation-request.schema.ts). */
export type EvaluationInput = ChangeSpec;

/** The request's options, plus what only lives in memory: shared slots, cancellation, events. */
export interface EvaluationOptions extends RequestOptions {
  /** Shared concurrency slots (a p-limit function); when given, `jobs` is not used. */
  slots?: <T>(fn: () => Promise<T>) => Promise<T>;
  signal?: AbortSignal;
  onEvent?: (event: EvaluationEvent) => void;
  /**
   * Handed a few ids the runs reported (core/observed-tests.ts `reportedExamples`) once they
   * have run. Only the CLI asks: they go to its user's terminal, never into the report the
   * App and the Action publish.
   */
  onReportedExamples?: (ids: string[]) => void;
  /**
   * The case is the user's own file (the CLI): a ref or patch of it that does not resolve is
   * thrown as an InputError naming the field before anything runs (git/case-mistakes.ts), not
   * reported as an infrastructure error.
   */
  caseFromUser?: boolean;
}

// The event type lives in core (faces format it with core/progress-lines.ts).
export type { EvaluationEvent } from '../core/evaluation-event.ts';

export type Evaluate = (input: EvaluationInput, options: EvaluationOptions) => Promise<Report>;
