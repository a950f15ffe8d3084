/**
 * The linked-set queue's figures (issue 28) in `npm run bench`: the shipped 200-set trace
 * (perf/queue-trace-200.jsonl, from perf/generate-queue-trace.ts) replayed through the queue
 * logic with budget 4 and, in the same run, one item at a time (the serial baseline); then the same
 * organization at a heavier load (a set every 0.8 T) to show the margin. Pure and in-process: a
 * second or two, no Docker. Alone: `npx tsx perf/queue-bench.ts`, or `BENCH_ONLY=queue npm run bench`.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { formatSimulation, type SimulationReport, simulateTrace } from '../src/cli/run/queue-simulate.ts';
import { parseTrace } from '../src/core/queue-simulation/parse-trace.ts';
import { DEFAULT_QUEUE_OPTIONS } from '../src/core/set-queue/queue-state.ts';
import { DEFAULT_TRACE, generateQueueTrace } from './generate-queue-trace.ts';

const HERE = path.dirname(fileURLToPath(import.meta.url));
export const QUEUE_TRACE = path.join(HERE, 'queue-trace-200.jsonl');

export interface QueueBench {
  trace: SimulationReport;
  heavier: SimulationReport;
}

export function runQueueBench(): QueueBench {
  const opts = DEFAULT_QUEUE_OPTIONS;
  const trace = simulateTrace(
    parseTrace(readFileSync(QUEUE_TRACE, 'utf8'), QUEUE_TRACE),
    'perf/queue-trace-200.jsonl',
    opts,
  );
  const heavy = generateQueueTrace({ ...DEFAULT_TRACE, interarrival: 0.8 }).join('\n');
  const heavier = simulateTrace(parseTrace(heavy, 'generated'), 'same organization, a set every 0.8 T', opts);
  return { trace, heavier };
}

/** The table, then one line per goal (reported, never asserted). */
export function printQueueBench(b: QueueBench): string {
  const q = b.trace.queue;
  const goal = (ok: boolean, text: string) => `${ok ? 'PASS' : 'FAIL'}  ${text}`;
  return [
    'Linked-set queue (perf/queue-bench.ts; 200 sets of 3 repositories out of 16, 10% failing, 5% flaky,',
    `a set every 1.25 T on average; T = one evaluation):`,
    formatSimulation(b.trace).trimEnd(),
    goal(
      q.p50 <= 1.5,
      `time to land p50 ${q.p50.toFixed(2)} T ≤ 1.5 T (serial ${b.trace.serial.p50.toFixed(2)} T)`,
    ),
    goal(
      q.p95 <= 4,
      `time to land p95 ${q.p95.toFixed(2)} T ≤ 4 T (serial ${b.trace.serial.p95.toFixed(2)} T)`,
    ),
    goal(
      q.evaluationsPerLanded <= 1.6,
      `${q.evaluationsPerLanded.toFixed(2)} evaluations per landed set ≤ 1.6 (serial ${b.trace.serial.evaluationsPerLanded.toFixed(2)})`,
    ),
    goal(
      q.innocentEvictions === 0,
      `${q.innocentEvictions} innocent evictions with 5% flaky results (goal 0)`,
    ),
    '',
    formatSimulation(b.heavier).trimEnd(),
  ].join('\n');
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.stdout.write(`${printQueueBench(runQueueBench())}\n`);
}
