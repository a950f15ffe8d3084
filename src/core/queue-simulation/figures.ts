/**
 * The figures `tandem queue simulate` and `npm run bench` print, from a simulation log: time to
 * land p50/p95 as multiples of one evaluation T (the trace's median evaluation time), evaluations
 * started per landed set, wasted evaluations, innocent evictions. Pure.
 */
import type { SimulationLog } from './simulate.ts';
import type { TraceSet } from './trace.schema.ts';

export interface QueueFigures {
  sets: number;
  landed: number;
  evicted: number;
  unfinished: number;
  /** Time to land in multiples of T. */
  p50: number;
  p95: number;
  evaluationsStarted: number;
  evaluationsPerLanded: number;
  /**
   * Evaluations whose result decided nothing: cancelled, voided after finishing (a set they
   * assumed failed), re-run (flaky, infrastructure). Each landed set is decided by one
   * evaluation, each evicted set by its failing one (and its diagnostic, when it had one).
   */
  wasted: number;
  diagnostics: number;
  innocentEvictions: number;
}

/** T: the median evaluation time of the trace, in seconds. */
export function evaluationT(trace: readonly TraceSet[]): number {
  return percentile(
    trace.map((t) => t.evaluation),
    50,
  );
}

/** Nearest-rank percentile (p in 0..100) of a non-empty list; 0 for an empty one. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[rank - 1] as number;
}

export function queueFigures(trace: readonly TraceSet[], log: SimulationLog): QueueFigures {
  const T = evaluationT(trace);
  const times = log.landed.map((x) => x.seconds / T);
  const diagnosedEvictions = log.evicted.filter((e) => !e.reason.startsWith('fails on the base tips')).length;
  const decisive = log.landed.length + log.evicted.length + Math.min(log.diagnostics, diagnosedEvictions);
  return {
    sets: trace.length,
    landed: log.landed.length,
    evicted: log.evicted.length,
    unfinished: log.unfinished.length,
    p50: percentile(times, 50),
    p95: percentile(times, 95),
    evaluationsStarted: log.evaluationsStarted,
    evaluationsPerLanded: log.landed.length ? log.evaluationsStarted / log.landed.length : 0,
    wasted: log.evaluationsStarted - decisive,
    diagnostics: log.diagnostics,
    innocentEvictions: log.evicted.filter((e) => e.innocent).length,
  };
}
