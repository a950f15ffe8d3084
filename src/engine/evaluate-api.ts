/**
 * The engine's public entry, shared by the CLI, the App and the Action. Nothing in the engine
 * prints: progress goes out as events.
 */
import type { ChangeSpec, RequestOptions } from '../core/evaluation-request.schema.ts';
import type { MatrixMode } from '../core/matrix-mode.ts';
import type { Report } from '../core/report.schema.ts';

/** The change to evaluate: the case with its suite resolved (see core/evaluation-request.schema.ts). */
export type EvaluationInput = ChangeSpec;

/** The request's options, plus what only lives in memory: shared slots, cancellation, events. */
export interface EvaluationOptions extends RequestOptions {
  /** Shared concurrency slots (a p-limit function); when given, `jobs` is not used. */
  slots?: <T>(fn: () => Promise<T>) => Promise<T>;
  signal?: AbortSignal;
  onEvent?: (event: EvaluationEvent) => void;
}

export type EvaluationEvent =
  | { type: 'resolved-refs'; repos: Array<{ repo: string; base: string; head?: string }> }
  | { type: 'plan'; configurations: Array<{ id: string; applied: string[] }>; mode: MatrixMode }
  | { type: 'state-ready'; repo: string; state: 'base' | 'head' | 'context'; sha: string }
  | { type: 'prepare-done'; repo: string; key: string; reused: boolean; durationMs: number }
  | { type: 'configuration-start'; id: string; attempt: number }
  | {
      type: 'configuration-done';
      id: string;
      attempt: number;
      outcome: 'pass' | 'fail' | 'error';
      passed: number;
      total: number;
      cached: boolean;
      durationMs: number;
    }
  | { type: 'log'; level: 'info' | 'warn'; message: string };

export type Evaluate = (input: EvaluationInput, options: EvaluationOptions) => Promise<Report>;
