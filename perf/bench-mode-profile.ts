/**
 * Where a `tandem bench run` spends its time: the generated instances of bench-mode.ts scored
 * in-process, with the time spent making bench states (base + test patch, each candidate) and
 * the configuration slots' occupancy (the configurations' own run time over `jobs × wall time`).
 * Low occupancy with high state time means predictions wait for their states before their first
 * configuration starts.
 *
 *   BENCH_MODE_INSTANCES=6 npx tsx perf/bench-mode-profile.ts
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { BenchStates } from '../src/bench/bench-states.ts';
import { runBench } from '../src/bench/run-bench.ts';
import { generate } from './bench-mode.ts';

const JOBS = Math.max(1, Math.min(4, os.availableParallelism()));

export interface BenchProfile {
  predictions: number;
  configurations: number;
  wallSeconds: number;
  /** Sum over calls of the time making states (calls overlap, so it can exceed the wall time). */
  stateSeconds: number;
  /** Wall time until the first configuration started. */
  firstConfigurationSeconds: number;
  /** Configuration-seconds run / (jobs × wall seconds). */
  slotOccupancy: number;
}

function timed<K extends 'testBase' | 'candidate'>(key: K, acc: { ms: number }) {
  const original = BenchStates.prototype[key] as (...a: unknown[]) => Promise<unknown>;
  (BenchStates.prototype as unknown as Record<string, unknown>)[key] = async function (
    this: BenchStates,
    ...args: unknown[]
  ) {
    const t = Date.now();
    try {
      return await original.apply(this, args);
    } finally {
      acc.ms += Date.now() - t;
    }
  };
}

export async function profileBenchRun(): Promise<BenchProfile> {
  const root = await mkdtemp(path.join(os.tmpdir(), 'tandem-bench-profile-'));
  try {
    const g = await generate(root);
    const states = { ms: 0 };
    timed('testBase', states);
    timed('candidate', states);
    let busyMs = 0;
    let first = 0;
    let configurations = 0;
    const started = Date.now();
    await runBench({
      instances: g.instancesFile,
      predictions: g.predictionsFile,
      runId: 'p',
      runsDir: path.join(root, 'runs'),
      jobs: JOBS,
      matrix: 'full',
      diagnose: false,
      retries: 0,
      engine: {
        cacheDir: path.join(root, 'cache'),
        useResultCache: false,
        sandbox: 'docker',
        prepareNetwork: 'host',
        onEvent: (e) => {
          if (e.type === 'configuration-start' && !first) first = Date.now();
          if (e.type === 'configuration-done') {
            configurations++;
            busyMs += e.durationMs;
          }
        },
      },
    });
    const wall = Date.now() - started;
    return {
      predictions: g.caseFiles.length,
      configurations,
      wallSeconds: wall / 1000,
      stateSeconds: states.ms / 1000,
      firstConfigurationSeconds: (first - started) / 1000,
      slotOccupancy: Math.round((busyMs / (JOBS * wall)) * 100) / 100,
    };
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  const p = await profileBenchRun();
  process.stdout.write(`${JSON.stringify({ jobs: JOBS, ...p }, null, 2)}\n`);
}
