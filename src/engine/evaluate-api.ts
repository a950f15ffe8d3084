/**
 * The engine's public entry, shared by the CLI, the App and the Action. Nothing in the engine
 * prints: progress goes out as events.
 */
import type { CaseFile } from '../core/case.schema.ts';
import type { MatrixMode } from '../core/matrix-plan.ts';
import type { Report } from '../core/report.schema.ts';
import type { Suite } from '../core/suite.schema.ts';

export interface EvaluationInput {
  /** The case, validated, with `suite` resolved to a Suite object. */
  caseFile: Omit<CaseFile, 'suite'>;
  suite: Suite;
  /** Folder the suite's hidden `files` are relative to. */
  suiteDir: string;
  /** Folder patch paths in the case are relative to. */
  caseDir: string;
}

export interface EvaluationOptions {
  matrix: MatrixMode;
  /** Extra runs of the full configuration (flaky detection). */
  reruns: number;
  /** Configurations run at once. */
  jobs: number;
  /** Shared concurrency slots (a p-limit function); when given, `jobs` is not used. */
  slots?: <T>(fn: () => Promise<T>) => Promise<T>;
  /** Mirror, state, prepared-dependency and result caches live here. */
  cacheDir: string;
  /** Where per-configuration workspaces are assembled (default: a tmpfs when there is one). */
  workDir?: string;
  /** false: bypass the result cache (states and mirrors are still reused). */
  useResultCache: boolean;
  sandbox: 'docker' | 'process';
  /** Docker network mode for `prepare` (bridge by default; host where no bridge exists). */
  prepareNetwork: string;
  /** Host CA bundle handed to prepare containers. */
  caBundle?: string;
  /** Only these configuration ids (a shard); the report is then partial. */
  only?: string[];
  /** How a partial report names its share (`2/3`). */
  shardLabel?: string;
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
