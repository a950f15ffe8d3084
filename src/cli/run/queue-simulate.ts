import { readFile } from 'node:fs/promises';
import { InputError } from '../../core/errors.ts';
import { evaluationT, type QueueFigures, queueFigures } from '../../core/queue-simulation/figures.ts';
import { parseTrace } from '../../core/queue-simulation/parse-trace.ts';
import { simulate } from '../../core/queue-simulation/simulate.ts';
import type { TraceSet } from '../../core/queue-simulation/trace.schema.ts';
import type { QueueOptions } from '../../core/set-queue/queue-state.ts';

export interface SimulationReport {
  trace: string;
  sets: number;
  /** One evaluation T: the trace's median evaluation time, in seconds. */
  tSeconds: number;
  speculation: number;
  retries: number;
  queue: QueueFigures;
  serial: QueueFigures;
}

/** Both runs on one trace: the queue with the budget, and one item at a time. */
export function simulateTrace(
  trace: readonly TraceSet[],
  file: string,
  opts: QueueOptions,
): SimulationReport {
  return {
    trace: file,
    sets: trace.length,
    tSeconds: evaluationT(trace),
    speculation: opts.speculation,
    retries: opts.retries,
    queue: queueFigures(trace, simulate(trace, opts)),
    serial: queueFigures(trace, simulate(trace, { ...opts, serial: true })),
  };
}

/** The figures side by side, one row per figure. */
export function formatSimulation(r: SimulationReport): string {
  const f = (x: number) => (Number.isInteger(x) ? String(x) : x.toFixed(2));
  const rows: Array<[string, (q: QueueFigures) => string]> = [
    ['time to land p50 (T)', (q) => f(q.p50)],
    ['time to land p95 (T)', (q) => f(q.p95)],
    ['evaluations per landed set', (q) => f(q.evaluationsPerLanded)],
    ['evaluations started', (q) => f(q.evaluationsStarted)],
    ['wasted evaluations', (q) => f(q.wasted)],
    ['diagnostic runs', (q) => f(q.diagnostics)],
    ['innocent evictions', (q) => f(q.innocentEvictions)],
    ['landed / evicted / stuck', (q) => `${q.landed} / ${q.evicted} / ${q.unfinished}`],
  ];
  const head = `queue (budget ${r.speculation})`;
  const lines = [
    `${r.trace}: ${r.sets} sets, T = ${f(r.tSeconds)} s (median evaluation), retries ${r.retries}`,
    `${''.padEnd(28)}${head.padEnd(20)}serial`,
    ...rows.map(([name, get]) => `${name.padEnd(28)}${get(r.queue).padEnd(20)}${get(r.serial)}`),
  ];
  return `${lines.join('\n')}\n`;
}

function count(raw: string, flag: string, min: number): number {
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > 1000)
    throw new InputError(`option --${flag}: expected a whole number from ${min} to 1000, got "${raw}"`);
  return n;
}

/** `tandem queue simulate TRACE`: the figures on stdout (text, or JSON with --json). */
export async function queueSimulateCommand(
  file: string,
  raw: { speculation: string; retries: string; json?: boolean },
): Promise<number> {
  const opts = {
    speculation: count(raw.speculation, 'speculation', 1),
    retries: count(raw.retries, 'retries', 0),
  };
  const trace = parseTrace(await readFile(file, 'utf8'), file);
  const report = simulateTrace(trace, file, opts);
  process.stdout.write(raw.json ? `${JSON.stringify(report, null, 2)}\n` : formatSimulation(report));
  return 0;
}
