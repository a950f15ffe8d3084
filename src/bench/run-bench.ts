/**
 * `tandem bench run`: every prediction (of this shard) evaluated, its report written as soon as
 * it finishes, finished ones skipped on a rerun (errored ones retried unless `retryErrors` is
 * off), then the run summary per model. Configurations
 * of all predictions share one set of `jobs` slots; states are made once per run (and cached
 * across runs) whatever the number of predictions that need them.
 */
import pLimit from 'p-limit';
import type { RunSummary } from '../core/bench-report.schema.ts';
import { summarizeRun } from '../core/bench-summary.ts';
import type { Shard } from '../core/shard-plan.ts';
import type { EvaluationOptions } from '../engine/evaluate-api.ts';
import { MirrorCache } from '../engine/git/git-mirror.ts';
import { BenchStates } from './bench-states.ts';
import {
  type BenchWork,
  missingPredictions,
  modelsOf,
  pendingWork,
  planBenchWork,
  shardShare,
  submittedIds,
} from './bench-work.ts';
import type { BenchMatrix, CandidateContext } from './evaluate-candidate.ts';
import { evaluatePending } from './evaluate-prediction.ts';
import { loadInstances } from './instances-file.ts';
import { loadPredictions } from './predictions-file.ts';
import { RunStore } from './run-store.ts';

export interface BenchRunOptions {
  instances: string;
  predictions: string;
  runId: string;
  runsDir: string;
  jobs: number;
  matrix: BenchMatrix;
  diagnose: boolean;
  shard?: Shard;
  /** Extra attempts after an infrastructure error. */
  retries: number;
  /** On a rerun, evaluate again the predictions that ended in an error (default true). */
  retryErrors?: boolean;
  /** Runs of each prediction (`--attempts K`), for pass@1 / pass@k. */
  attempts?: number;
  /** Maps rows to suites by repository (and version): see suite-map.ts. */
  suites?: string;
  /** Multi-SWE-bench rows: count `n2p_tests` as FAIL_TO_PASS. */
  n2pAsF2p?: boolean;
  engine: Omit<EvaluationOptions, 'matrix' | 'only' | 'jobs' | 'slots' | 'reruns'>;
  onEvent?: (e: BenchRunEvent) => void;
}

export type BenchRunEvent =
  | { type: 'start'; total: number; skipped: number; retried: number }
  | { type: 'done'; instanceId: string; model: string; outcome: string };

export interface BenchRunResult {
  summaries: Array<{ file: string; summary: RunSummary }>;
  /** Predictions this invocation evaluated (not skipped). */
  evaluated: number;
  /** Per model, the instances the predictions file has no prediction for. */
  missing: Array<{ model: string; ids: string[] }>;
  /** Listed test names no run reported (`model instance: …`), for the user to fix the mapping. */
  warnings: string[];
}

/**
 * The phases: load and plan the work (every input error found here), take this shard's share,
 * skip what earlier invocations finished, evaluate the rest, write each model's summary.
 */
export async function runBench(opts: BenchRunOptions): Promise<BenchRunResult> {
  const instances = await loadInstances(opts.instances, {
    ...(opts.suites ? { suites: opts.suites } : {}),
    ...(opts.n2pAsF2p ? { n2pAsF2p: true } : {}),
  });
  const predictions = await loadPredictions(opts.predictions, instances);
  const all = planBenchWork(predictions, instances, opts.predictions);
  const mine = shardShare(all, opts.shard);
  const store = RunStore.inRunsDir(opts.runsDir, opts.runId);
  const recorded = await Promise.all(
    mine.map((w) => store.outcome(w.prediction.model_name_or_path, w.prediction.instance_id)),
  );
  const { todo, retried } = pendingWork(mine, recorded, opts.retryErrors ?? true);
  opts.onEvent?.({ type: 'start', total: mine.length, skipped: mine.length - todo.length, retried });

  // More predictions in flight than slots, so states are made while others' tests run.
  const warnings = await evaluatePending(
    todo,
    {
      ctx: candidateContext(opts),
      store,
      matrix: opts.matrix,
      attempts: opts.attempts ?? 1,
      diagnose: opts.diagnose,
      ...(opts.engine.signal ? { signal: opts.engine.signal } : {}),
      onDone: (d) => opts.onEvent?.({ type: 'done', ...d }),
    },
    Math.max(2, opts.jobs * 2),
  );
  const instanceIds = instances.map((i) => i.instance.instance_id);
  const summaries = await writeSummaries(store, all, instanceIds, opts.runId);
  return { summaries, evaluated: todo.length, missing: missingPredictions(all, instanceIds), warnings };
}

/** The engine context every prediction shares: one set of `jobs` slots, states made once per run. */
function candidateContext(opts: BenchRunOptions): CandidateContext {
  const slots = pLimit(Math.max(1, opts.jobs));
  return {
    states: new BenchStates(opts.engine.cacheDir, new MirrorCache(opts.engine.cacheDir)),
    engine: { ...opts.engine, jobs: opts.jobs, reruns: 0, slots: <T>(fn: () => Promise<T>) => slots(fn) },
    retries: opts.retries,
  };
}

/** Each model's run summary, from every entry its folder holds (earlier invocations' too), written. */
async function writeSummaries(
  store: RunStore,
  all: readonly BenchWork[],
  instanceIds: string[],
  runId: string,
): Promise<BenchRunResult['summaries']> {
  const summaries: BenchRunResult['summaries'] = [];
  for (const model of modelsOf(all)) {
    const summary = summarizeRun(await store.entries(model), {
      instanceIds,
      submittedIds: submittedIds(all, model),
      model,
      runId,
    });
    summaries.push({ file: await store.writeSummary(summary), summary });
  }
  return summaries;
}
