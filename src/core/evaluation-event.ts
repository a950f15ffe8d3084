/**
 * What an evaluation reports while it runs. The engine only emits these; each face shows them
 * its own way (a progress bar, log lines, a check run's "in progress" text). Pure types.
 */
import type { MatrixMode } from './matrix-mode.ts';

export type ConfigurationOutcome = 'pass' | 'fail' | 'error';

export interface ConfigurationDoneEvent {
  type: 'configuration-done';
  id: string;
  /** 0 for the first run, k for the k-th rerun of the full configuration. */
  attempt: number;
  /**
   * As the report grades it (core/grading.ts). `unjudged`: this evaluation does not run the
   * all-base configuration the suite's tests are classified by (a shard), so only the combined
   * report judges it.
   */
  outcome: ConfigurationOutcome | 'unjudged';
  passed: number;
  total: number;
  cached: boolean;
  durationMs: number;
}

export type EvaluationEvent =
  | { type: 'resolved-refs'; repos: Array<{ repo: string; base: string; head?: string }> }
  | { type: 'plan'; configurations: Array<{ id: string; applied: string[] }>; mode: MatrixMode }
  | { type: 'state-ready'; repo: string; state: 'base' | 'head' | 'context'; sha: string }
  | { type: 'prepare-done'; repo: string; key: string; reused: boolean; durationMs: number }
  | { type: 'configuration-start'; id: string; attempt: number }
  | ConfigurationDoneEvent
  | { type: 'log'; level: 'info' | 'warn'; message: string };
