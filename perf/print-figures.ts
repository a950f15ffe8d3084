/**
 * The bench's report: one table row per variant, one PASS/FAIL line per target (reported, never
 * asserted: a benchmark does not fail CI), the details behind each figure and what they mean.
 */
import type { TandemRun } from './engine-bench.ts';
import type { Variant } from './generate-case.ts';
import type { NaiveRun } from './naive-baseline.ts';

/** Cold speed-up over the naive baseline the issue asks for, per variant. */
export const SPEEDUP_TARGET: Record<Variant, number> = { 'no-deps': 3, deps: 5 };
/** "Close to the test time alone": warm wall time at most this multiple of it. */
export const WARM_TARGET = 1.5;
/** Issue 9 §3: the engine's median cost per configuration beyond the tests, at most this. */
export const OVERHEAD_TARGET_MS = 150;

export interface VariantFigures {
  variant: Variant;
  filesPerRepo: number[];
  commitsPerRepo: number[];
  /** How the repositories were fetched, e.g. `http://127.0.0.1:PORT`. */
  served: string;
  jobs: number;
  repeat: number;
  naive: NaiveRun;
  tandem: TandemRun[];
  naiveS: number;
  coldS: number;
  warmS: number;
  warmRerunS: number;
  speedup: number;
  /** Σ of the in-container test-command times of the cold run's 8 configurations ÷ jobs. */
  testAloneS: number;
  warmRatio: number;
  warmRerunRatio: number;
  /** Median over configurations of (configuration time − its test commands' own time). */
  overheadMedianMs: number;
  overheadRerunMedianMs: number;
  /** The same, with the engine-measured `docker exec` group times instead. */
  overheadByGroupMedianMs: number;
  verdictsAgree: boolean;
}

export const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};
export const sec = (ms: number) => ms / 1000;

function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  return rows
    .map((r) =>
      r.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  '),
    )
    .join('\n');
}

const HEADINGS = [
  'variant',
  'naive s',
  'cold s',
  'warm s',
  'warm-rerun s',
  'test-only s',
  'cold speed-up',
  'warm/test',
  'warm-rerun/test',
  'overhead/config (median)',
];

function row(f: VariantFigures): string[] {
  return [
    f.variant,
    f.naiveS.toFixed(1),
    f.coldS.toFixed(1),
    f.warmS.toFixed(2),
    f.warmRerunS.toFixed(1),
    f.testAloneS.toFixed(2),
    `${f.speedup.toFixed(1)}×`,
    f.warmRatio.toFixed(2),
    f.warmRerunRatio.toFixed(2),
    `${(f.overheadMedianMs / 1000).toFixed(2)} s`,
  ];
}

function targets(f: VariantFigures): string[] {
  const ok = (b: boolean) => (b ? 'PASS' : 'FAIL');
  const s = (ms: number) => (ms / 1000).toFixed(2);
  return [
    `  ${ok(f.speedup >= SPEEDUP_TARGET[f.variant])} [${f.variant}] cold ≥ ${SPEEDUP_TARGET[f.variant]}× faster than naive: ${f.speedup.toFixed(1)}×`,
    `  ${ok(f.warmRatio <= WARM_TARGET)} [${f.variant}] warm (nothing changed) ≤ ${WARM_TARGET}× test-only time: ${f.warmRatio.toFixed(2)} (warm-rerun, results not cached: ${f.warmRerunRatio.toFixed(2)})`,
    `  ${ok(f.overheadMedianMs <= OVERHEAD_TARGET_MS)} [${f.variant}] median per-configuration overhead ≤ ${OVERHEAD_TARGET_MS / 1000} s: ${s(f.overheadMedianMs)} s cold, ${s(f.overheadRerunMedianMs)} s warm-rerun`,
    `  ${ok(f.verdictsAgree)} [${f.variant}] Tandem and the naive baseline agree (only the full configuration passes; resolved, jointly necessary)`,
  ];
}

function details(f: VariantFigures): string[] {
  const [cold, warm, rerun] = f.tandem as [TandemRun, TandemRun, TandemRun];
  const n = f.naive.configurations;
  const m = (k: 'cloneMs' | 'containerMs' | 'installMs' | 'testMs') =>
    (median(n.map((x) => x[k])) / 1000).toFixed(2);
  const phases = (r: TandemRun) =>
    `${r.label}: CLI start ${r.startupMs === null ? '?' : sec(r.startupMs).toFixed(1)} s` +
    (r.prepareS.length ? `, installs ${r.prepareS.map((x) => x.toFixed(1)).join(' + ')} s` : '');
  return [
    `  [${f.variant}] files per repository: ${f.filesPerRepo.join(', ')}; commits on main: ${f.commitsPerRepo.join(', ')}; served over ${f.served}; jobs ${f.jobs} for Tandem and the baseline; fastest of ${f.repeat} run(s) each`,
    `    tandem engine time (report durationMs, without the CLI's start): cold ${sec(cold.engineMs).toFixed(1)} s, warm ${sec(warm.engineMs).toFixed(2)} s, warm-rerun ${sec(rerun.engineMs).toFixed(1)} s`,
    `    tandem phases — ${[cold, warm, rerun].map(phases).join('; ')}`,
    `    naive per configuration (median): clone ${m('cloneMs')} s, container ${m('containerMs')} s, npm ci ${m('installMs')} s, tests ${m('testMs')} s`,
    `    overhead median with engine-measured group times (docker exec included in the test time): ${(f.overheadByGroupMedianMs / 1000).toFixed(2)} s`,
  ];
}

const METRICS = [
  'Metrics: wall times are spawn-to-exit of `node bin/tandem.js eval --matrix full` (cold: fresh cache folder;',
  'warm: same folder, nothing changed, results cached; warm-rerun: same folder with the result cache moved aside,',
  'so mirrors, states and installs are reused and all 8 configurations run). test-only = Σ over the 8 configurations',
  "of the test commands' own time measured inside the container (/proc/uptime, 10 ms resolution), ÷ jobs: what the",
  'tests alone take on the same parallel slots. overhead/config = the configuration time the engine reports (from',
  "its states and installs being ready to its container removed) − its test commands' own time. The baseline runs",
  'its 8 configurations with the same number of parallel jobs; both fetch the repositories over HTTP.',
];

export function printFigures(figs: VariantFigures[]): void {
  const out = [table([HEADINGS, ...figs.map(row)]), '', 'Targets:', ...figs.flatMap(targets)];
  out.push('', 'Details:', ...figs.flatMap(details), '', ...METRICS);
  process.stdout.write(`${out.join('\n')}\n`);
}
