/**
 * CLI start time: `tandem --version` and `--help` against `node -e 0`, measured in the same run
 * (alternating, so machine load hits every side alike) and compared as medians. Target:
 * `tandem --version` within 3× of `node -e 0`. Also shown: the compiled entry alone (what an
 * installed package runs: no checkout freshness check) and the former way, TypeScript sources
 * through tsx, for scale.
 *   npx tsx perf/cli-start.ts [runs]     (also part of `npm run bench`)
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const BIN = path.join(ROOT, 'bin', 'tandem.js');

export interface CliStartFigures {
  runs: number;
  /** Median wall time per command line, ms. */
  medianMs: Record<string, number>;
  /** `tandem --version` median / `node -e 0` median. */
  versionRatio: number;
  helpRatio: number;
}

const SIDES: Record<string, string[]> = {
  'node -e 0': ['-e', '0'],
  'tandem --version': [BIN, '--version'],
  'tandem --help': [BIN, '--help'],
  'node build/cli/main.js --version': [path.join(ROOT, 'build', 'cli', 'main.js'), '--version'],
  'tsx src/cli/main.ts --version (before)': [
    '--import',
    'tsx',
    path.join(ROOT, 'src', 'cli', 'main.ts'),
    '--version',
  ],
};

function timeOnce(args: string[]): number {
  const start = process.hrtime.bigint();
  const r = spawnSync(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (r.status !== 0) throw new Error(`node ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  return ms;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

export function runCliStartBench(runs = 15): CliStartFigures {
  // A checkout compiles a stale build on first use; that one-off is not start time.
  timeOnce([BIN, '--version']);
  const samples: Record<string, number[]> = Object.fromEntries(Object.keys(SIDES).map((k) => [k, []]));
  for (let i = 0; i < runs; i++) {
    for (const [name, args] of Object.entries(SIDES)) {
      // tsx transpiles on every start (seconds): a few samples suffice for scale.
      if (name.includes('(before)') && i >= 3) continue;
      samples[name]!.push(timeOnce(args));
    }
  }
  const medianMs = Object.fromEntries(Object.entries(samples).map(([k, v]) => [k, median(v)]));
  const base = medianMs['node -e 0']!;
  return {
    runs,
    medianMs,
    versionRatio: medianMs['tandem --version']! / base,
    helpRatio: medianMs['tandem --help']! / base,
  };
}

export function printCliStart(f: CliStartFigures): string {
  const base = f.medianMs['node -e 0']!;
  const lines = Object.entries(f.medianMs).map(
    ([name, ms]) =>
      `  ${name.padEnd(40)} ${ms.toFixed(0).padStart(6)} ms  ${(ms / base).toFixed(1).padStart(5)}×`,
  );
  const ok = f.versionRatio <= 3 ? 'PASS' : 'FAIL';
  return [
    `CLI start (median of ${f.runs} runs, spawn to exit, ratio to node -e 0 in the same run):`,
    ...lines,
    `${ok}  tandem --version within 3× of node -e 0: ${f.versionRatio.toFixed(2)}×`,
  ].join('\n');
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.stdout.write(`${printCliStart(runCliStartBench(Number(process.argv[2] ?? 15) || 15))}\n`);
}
