/**
 * Tandem's side of the benchmark: `tandem eval --matrix full` spawned as a user runs it
 * (`node bin/tandem.js`), three times on one cache folder:
 *   cold        — fresh cache folder: mirrors, states, `prepare` installs and every configuration.
 *   warm        — same folder, nothing changed: every configuration comes from the result cache.
 *   warm-rerun  — same folder with the result cache moved aside: mirrors, states and prepared
 *                 dependencies are reused, every configuration runs again.
 * Test-command time is measured inside the container (the suite's test commands print
 * /proc/uptime before and after), read back from the result-cache entries the run wrote.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readdir, readFile, rename } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Report, reportSchema } from '../src/core/report.schema.ts';
import { configurationRunSchema } from '../src/core/run.schema.ts';
import { type BenchCase, TIMING_MARK } from './generate-case.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export interface ConfigurationFigures {
  id: string;
  outcome: string;
  cached: boolean;
  /** The engine's configuration time: workspace copy, container, setup, tests, collection. */
  durationMs: number;
  /** Σ of the engine-measured group times (each `docker exec` of a test command). */
  groupMs: number;
  /** Σ of the test commands' own time, measured inside the container; null when cached. */
  testMs: number | null;
}

export interface TandemRun {
  /** `push`: after a new commit on one target's head (perf/push-rerun.ts). */
  label: 'cold' | 'warm' | 'warm-rerun' | 'push';
  /** Spawn to exit of the CLI. */
  wallMs: number;
  /** The report's durationMs (the engine alone, without the CLI's start). */
  engineMs: number;
  exitCode: number | null;
  outcome: string;
  jointlyNecessary: boolean | null;
  /** Spawn to the CLI's plan line: node + tsx start, case loading. */
  startupMs: number | null;
  /** `prepare` runs that installed (not reused), seconds each, from the CLI's progress lines. */
  prepareS: number[];
  /** Spawn to the full configuration's progress line: when the verdict is known. */
  verdictMs: number | null;
  configurations: ConfigurationFigures[];
}

export interface EngineOptions {
  jobs: number;
  cacheDir: string;
  prepareNetwork: string;
  caBundle?: string;
}

/** Runs cold, warm and warm-rerun on a fresh `cacheDir`. */
export async function runEngineBench(c: BenchCase, opts: EngineOptions): Promise<TandemRun[]> {
  const cold = await runOnce(c, opts, 'cold');
  const warm = await runOnce(c, opts, 'warm');
  await rename(path.join(opts.cacheDir, 'results'), path.join(opts.cacheDir, 'results-before-rerun'));
  const rerun = await runOnce(c, opts, 'warm-rerun');
  return [cold, warm, rerun];
}

export async function runOnce(
  c: BenchCase,
  opts: EngineOptions,
  label: TandemRun['label'],
): Promise<TandemRun> {
  const json = path.join(opts.cacheDir, `report-${label}.json`);
  const args = [
    path.join(ROOT, 'bin', 'tandem.js'),
    'eval',
    c.caseFile,
    '--matrix',
    'full',
    '--jobs',
    String(opts.jobs),
    '--cache-dir',
    opts.cacheDir,
    '--prepare-network',
    opts.prepareNetwork,
    ...(opts.caBundle ? ['--ca-bundle', opts.caBundle] : []),
    '--json',
    json,
  ];
  const started = performance.now();
  const { code, stderr, lines } = await run(process.execPath, args);
  const wallMs = performance.now() - started;
  if (!existsSync(json)) throw new Error(`tandem eval (${label}) wrote no report (exit ${code}):\n${stderr}`);
  const report: Report = reportSchema.parse(JSON.parse(await readFile(json, 'utf8')));
  const inner = await innerTestTimes(path.join(opts.cacheDir, 'results'));
  return {
    label,
    wallMs,
    engineMs: report.durationMs,
    exitCode: code,
    outcome: report.outcome,
    jointlyNecessary: report.verdict.jointlyNecessary,
    startupMs: lines.find((l) => /configuration\(s\), matrix/.test(l.text))?.atMs ?? null,
    verdictMs: lines.find((l) => /^\s*full: /.test(l.text))?.atMs ?? null,
    prepareS: lines.flatMap((l) => {
      const m = /prepared \S+ \(([\d.]+)s\)/.exec(l.text);
      return m ? [Number(m[1])] : [];
    }),
    configurations: report.configurations.map((cfg) => ({
      id: cfg.id,
      outcome: cfg.outcome,
      cached: cfg.cached,
      durationMs: cfg.durationMs,
      groupMs: cfg.groups.reduce((a, g) => a + g.durationMs, 0),
      testMs: cfg.cached ? null : (inner.get(cfg.id) ?? null),
    })),
  };
}

/** Per configuration id: Σ of the in-container test times its groups printed. */
async function innerTestTimes(resultsDir: string): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  if (!existsSync(resultsDir)) return out;
  for (const shard of await readdir(resultsDir)) {
    for (const file of await readdir(path.join(resultsDir, shard))) {
      if (!file.endsWith('.json')) continue;
      const parsed = configurationRunSchema.safeParse(
        JSON.parse(await readFile(path.join(resultsDir, shard, file), 'utf8')),
      );
      if (!parsed.success || parsed.data.attempt !== 0) continue;
      const ms = parsed.data.groups.reduce((a, g) => a + (testSeconds(g.outputTail ?? '') ?? 0) * 1000, 0);
      out.set(parsed.data.id, Math.round(ms));
    }
  }
  return out;
}

/** The test command's own seconds from its timing line (10 ms resolution), or undefined. */
export function testSeconds(output: string): number | undefined {
  const m = new RegExp(`${TIMING_MARK} ([\\d.]+) ([\\d.]+)`).exec(output);
  return m ? Number(m[2]) - Number(m[1]) : undefined;
}

interface Line {
  atMs: number;
  text: string;
}

/** Spawns the CLI; its progress lines (stderr, not a TTY) are kept with their arrival time. */
function run(cmd: string, args: string[]): Promise<{ code: number | null; stderr: string; lines: Line[] }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    let partial = '';
    const lines: Line[] = [];
    child.stderr.on('data', (d: Buffer) => {
      const text = d.toString();
      stderr = (stderr + text).slice(-8000);
      const parts = (partial + text).split('\n');
      partial = parts.pop() ?? '';
      for (const p of parts) lines.push({ atMs: performance.now() - started, text: p });
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stderr, lines }));
  });
}
