/**
 * `npm run bench`: the CLI's start time against `node -e 0`; the evaluation engine against a naive baseline on a generated 3-repository
 * case (8 configurations) served over HTTP, without and with real npm dependencies; then the App
 * scenario when perf/app-bench.ts is present, benchmark mode, and the real npm case (generated
 * repositories with a toolchain's npm dependencies; perf/real-case.ts, BENCH_REAL=0 skips it), and the
 * grading-fidelity table (perf/grading-fidelity.ts) and the linked-set queue on its trace
 * (perf/queue-bench.ts; BENCH_ONLY=queue runs only that), the App's store on its backends
 * (perf/store-bench.ts; BENCH_ONLY=store runs only that), and the worker pool's throughput with 1-3
 * processes (perf/workers-bench.ts; BENCH_ONLY=workers runs only that). BENCH_ONLY=replicas runs the scale-out
 * proof instead (perf/replicas-bench.ts beside perf/app-bench.ts, then the worker pool; not in the default run). Prints a table and one line per target (pass/fail is reported,
 * never asserted: a benchmark does not fail CI), and writes the figures as JSON to a temp folder.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadCase } from '../src/engine/case-loader.ts';
import { detectPrepareNetwork } from '../src/engine/docker/docker-network.ts';
import { defaultJobs } from '../src/engine/evaluation-request.ts';
import { printCliStart, runCliStartBench } from './cli-start.ts';
import { runEngineBench, type TandemRun } from './engine-bench.ts';
import { type BenchCase, generateBenchCase, type Variant } from './generate-case.ts';
import { gradingFidelity, printGradingFidelity } from './grading-fidelity.ts';
import { sampleLoad } from './load-sample.ts';
import { type NaiveRun, runNaiveBaseline } from './naive-baseline.ts';
import { median, printFigures, sec, type VariantFigures } from './print-figures.ts';
import { type PushFigures, printPushFigures, runPushRerun } from './push-rerun.ts';
import { printQueueBench, runQueueBench } from './queue-bench.ts';
import { serveBenchCase } from './serve-case.ts';
import { printStoreBench, runStoreBench } from './store-bench.ts';
import { printWorkersBench, runWorkersBench, type WorkersBench } from './workers-bench.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const HOST_CA = '/etc/ssl/certs/ca-certificates.crt';

const log = (s: string) => process.stderr.write(`bench: ${s}\n`);
/** Per variant, the re-evaluation after a push (perf/push-rerun.ts). */
const pushFigures: PushFigures[] = [];

async function benchVariant(
  root: string,
  variant: Variant,
  network: string,
  ca?: string,
): Promise<VariantFigures> {
  const dir = path.join(root, variant);
  log(`[${variant}] generating the organization (3 repositories with history)…`);
  // Synchronous git: done before the HTTP server starts in this process.
  const generated = generateBenchCase(dir, variant);
  const served = await serveBenchCase(generated);
  try {
    log(`[${variant}] repositories served at ${served.url}`);
    return await measure(served.benchCase, served.url, network, ca);
  } finally {
    await served.close();
  }
}

async function measure(c: BenchCase, url: string, network: string, ca?: string): Promise<VariantFigures> {
  const { variant, dir } = c;
  const jobs = defaultJobs((await loadCase(c.caseFile)).suite);
  // BENCH_REPEAT=n (default 2) repeats both sides n times (alternating) and keeps the fastest run of each kind.
  const repeat = Math.max(1, Number(process.env.BENCH_REPEAT ?? 2) || 2);
  let tandem: TandemRun[] = [];
  let naive: NaiveRun | undefined;
  for (let i = 0; i < repeat; i++) {
    log(
      `[${variant}] tandem eval --matrix full: cold, warm, warm-rerun (jobs ${jobs}, run ${i + 1}/${repeat})…`,
    );
    const runs = await runEngineBench(c, {
      jobs,
      cacheDir: path.join(dir, `cache-${i}`),
      prepareNetwork: network,
      ...(ca ? { caBundle: ca } : {}),
    });
    tandem = runs.map((r, k) => (tandem[k] && tandem[k].wallMs <= r.wallMs ? tandem[k] : r));
    log(`[${variant}] naive baseline (jobs ${jobs}, run ${i + 1}/${repeat})…`);
    const n = await runNaiveBaseline(c, {
      jobs,
      workDir: path.join(dir, 'naive'),
      prepareNetwork: network,
      ...(ca ? { caBundle: ca } : {}),
    });
    if (!naive || n.wallMs < naive.wallMs) naive = n;
  }
  if (!naive) throw new Error('no baseline run');
  const [cold, warm, rerun] = tandem as [TandemRun, TandemRun, TandemRun];
  // Last, on the last cache folder: it changes a remote, so nothing may run on this case after it.
  log(`[${variant}] re-evaluation after a push to one of the three targets…`);
  pushFigures.push(
    await runPushRerun(
      c,
      {
        jobs,
        cacheDir: path.join(dir, `cache-${repeat - 1}`),
        prepareNetwork: network,
        ...(ca ? { caBundle: ca } : {}),
      },
      { cold, rerun },
    ),
  );
  const testAlone = (r: TandemRun) => sec(r.configurations.reduce((a, x) => a + (x.testMs ?? 0), 0)) / jobs;
  const overheads = (r: TandemRun) => r.configurations.map((x) => x.durationMs - (x.testMs ?? 0));
  const passIds = (ids: Array<{ id: string; pass: boolean }>) =>
    ids
      .filter((x) => x.pass)
      .map((x) => x.id)
      .join(',');
  const naivePass = passIds(
    naive.configurations.map((x) => ({ id: x.id, pass: x.failed === 0 && x.passed > 0 })),
  );
  const agree = tandem.every(
    (r) => passIds(r.configurations.map((x) => ({ id: x.id, pass: x.outcome === 'pass' }))) === naivePass,
  );
  return {
    variant,
    filesPerRepo: c.repos.map((r) => r.files),
    commitsPerRepo: c.repos.map((r) => r.commits),
    served: url,
    jobs,
    repeat,
    naive,
    tandem,
    naiveS: sec(naive.wallMs),
    coldS: sec(cold.wallMs),
    warmS: sec(warm.wallMs),
    warmRerunS: sec(rerun.wallMs),
    speedup: naive.wallMs / cold.wallMs,
    testAloneS: testAlone(cold),
    warmRatio: sec(warm.wallMs) / testAlone(cold),
    warmRerunRatio: sec(rerun.wallMs) / testAlone(rerun),
    overheadMedianMs: median(overheads(cold)),
    overheadRerunMedianMs: median(overheads(rerun)),
    overheadByGroupMedianMs: median(cold.configurations.map((x) => x.durationMs - x.groupMs)),
    verdictsAgree:
      agree && cold.outcome === 'resolved' && cold.jointlyNecessary === true && naivePass === 'full',
  };
}

async function main(): Promise<void> {
  // BENCH_ONLY=landing: only the landing of linked sets against the stand-in (perf/landing-bench.ts).
  if (process.env.BENCH_ONLY === 'landing') {
    await landingScenario();
    return;
  }
  // BENCH_ONLY=workers: only the worker pool's throughput with 1, 2, 3 processes (perf/workers-bench.ts).
  if (process.env.BENCH_ONLY === 'workers') {
    process.stdout.write(`${printWorkersBench(await runWorkersBench(log))}\n`);
    return;
  }
  // BENCH_ONLY=replicas: the scale-out proof (perf/replicas-bench.ts) beside one App on its
  // embedded store (perf/app-bench.ts), then the worker pool's throughput; its own mode only
  // (about 10 minutes), not part of the default run.
  if (process.env.BENCH_ONLY === 'replicas') {
    await replicasScenario();
    return;
  }
  // First, while the bench itself puts no load on the machine: it takes a few seconds.
  // BENCH_ONLY=engine: only the engine variants (no CLI start, App or benchmark mode);
  // BENCH_VARIANTS=no-deps (comma-separated) picks variants.
  const engineOnly = process.env.BENCH_ONLY === 'engine';
  // Pure and in-process (perf/queue-bench.ts): the linked-set queue on its 200-set trace vs serial.
  // BENCH_ONLY=queue: only that (no Docker).
  const queue = engineOnly ? undefined : runQueueBench();
  if (queue && process.env.BENCH_ONLY === 'queue') {
    process.stdout.write(`${printQueueBench(queue)}\n`);
    return;
  }
  // The App's store on SQLite, PGlite and a PostgreSQL server (perf/store-bench.ts), each in a
  // child process. BENCH_ONLY=store: only that (no Docker).
  const store = engineOnly ? undefined : await runStoreBench(log);
  if (store && process.env.BENCH_ONLY === 'store') {
    process.stdout.write(`${printStoreBench(store)}\n`);
    return;
  }
  const variants = (process.env.BENCH_VARIANTS ?? 'no-deps,deps')
    .split(',')
    .filter((v): v is Variant => v === 'no-deps' || v === 'deps');
  if (!engineOnly) log('CLI start time against node -e 0 (perf/cli-start.ts)…');
  const cliStart = engineOnly ? undefined : runCliStartBench();
  // Pure and in-process (perf/grading-fidelity.ts): derived lists vs the generator's, per dataset.
  const fidelity = engineOnly ? undefined : gradingFidelity();
  execFileSync('bash', [path.join(ROOT, 'scripts/start-docker.sh')], { stdio: 'inherit' });
  execFileSync('bash', [path.join(ROOT, 'scripts/build-sandbox-image.sh')], { stdio: 'inherit' });
  const root = await mkdtemp(path.join(os.tmpdir(), 'tandem-bench-'));
  const network = await detectPrepareNetwork();
  const ca = existsSync(HOST_CA) ? HOST_CA : undefined;
  log(`work folder ${root}; prepare network ${network}; CA bundle ${ca ?? '(none)'}`);
  const started = Date.now();
  const loadBefore = os.loadavg();
  const sampler = sampleLoad();
  const figs: VariantFigures[] = [];
  try {
    for (const v of variants) {
      try {
        figs.push(await benchVariant(root, v, network, ca));
      } catch (err) {
        // e.g. no registry for the `deps` variant: report it and go on with the rest.
        process.stdout.write(`[${v}] the variant failed: ${(err as Error).message}\n`);
      }
    }
  } finally {
    for (const v of ['no-deps', 'deps']) await rm(path.join(root, v), { recursive: true, force: true });
  }
  const during = sampler.stop();
  const load = { cores: os.availableParallelism(), before: loadBefore, after: os.loadavg(), during };
  printFigures(figs);
  if (pushFigures.length > 0) process.stdout.write(`\n${printPushFigures(pushFigures)}\n`);
  if (cliStart) process.stdout.write(`\n${printCliStart(cliStart)}\n`);
  if (fidelity) process.stdout.write(`\n${printGradingFidelity(fidelity)}\n`);
  if (queue) process.stdout.write(`\n${printQueueBench(queue)}\n`);
  if (store) process.stdout.write(`\n${printStoreBench(store)}\n`);
  const busy = Math.max(load.before[0]!, load.after[0]!, during.mean) > load.cores;
  process.stdout.write(
    `\nLoad average (1 min) ${load.before[0]!.toFixed(1)} before, ${load.after[0]!.toFixed(1)} after, ` +
      `${during.mean.toFixed(1)} mean / ${during.max.toFixed(1)} max during (every 10 s), on ${load.cores} cores` +
      (busy ? ': the machine was busy with other work; the figures are inflated and noisy.\n' : '.\n'),
  );

  const results = path.join(root, 'results');
  await mkdir(results, { recursive: true });
  const file = path.join(results, 'latest.json');
  const save = (app?: unknown) =>
    writeFile(
      file,
      `${JSON.stringify({ createdAt: new Date().toISOString(), load, cliStart, fidelity, queue, store, engine: figs, push: pushFigures, app }, null, 2)}\n`,
    );
  await save();
  if (engineOnly) {
    process.stdout.write(`\nfigures: ${file}\n`);
    return;
  }
  await landingScenario();
  await workersScenario();
  const appFigures = await appScenario();
  if (appFigures) await save(appFigures);
  await benchModeScenario(file);
  if (process.env.BENCH_REAL !== '0') await realCaseScenario(file, network, ca);
  process.stdout.write(`\nfigures: ${file} (whole bench ${((Date.now() - started) / 1000).toFixed(0)} s)\n`);
}

/** Landing linked sets as tested vs the sequential merge (perf/landing-bench.ts); its failure is reported. */
async function landingScenario(): Promise<void> {
  log('landing linked sets against the stand-in (perf/landing-bench.ts)…');
  try {
    const { runLandingBench, printLandingFigures } = await import('./landing-bench.ts');
    printLandingFigures(await runLandingBench());
  } catch (err) {
    process.stdout.write(`
landing: the scenario failed: ${(err as Error).message}
`);
  }
}

/** The worker pool's throughput with 1, 2, 3 processes (perf/workers-bench.ts); its failure is reported. */
async function workersScenario(): Promise<WorkersBench | undefined> {
  log('worker pool throughput, 1-3 worker processes (perf/workers-bench.ts)…');
  try {
    const b = await runWorkersBench(log);
    process.stdout.write(`\n${printWorkersBench(b)}\n`);
    return b;
  } catch (err) {
    process.stdout.write(`\nworkers: the scenario failed: ${(err as Error).message}\n`);
    return undefined;
  }
}

/** Replicas vs one embedded App, then 1-3 workers; every figure measured in this run, a failure reported. */
async function replicasScenario(): Promise<void> {
  const { runReplicasBench } = await import('./replicas-bench.ts');
  const { runAppBench } = await import('./app-bench.ts');
  const { printReplicasComparison } = await import('./print-replicas.ts');
  const error = (err: unknown) => ({ error: (err as Error).message });
  log('replicas on PostgreSQL with a worker pool (perf/replicas-bench.ts: 3 replicas, 3 workers, 2 kills)…');
  const replicas = await runReplicasBench({ log }).catch(error);
  log('one App on its embedded store, the same scenario (perf/app-bench.ts)…');
  const embedded = await runAppBench().catch(error);
  process.stdout.write(`\n${printReplicasComparison(replicas, embedded)}\n`);
  const workers = await workersScenario();
  const root = await mkdtemp(path.join(os.tmpdir(), 'tandem-bench-'));
  const file = path.join(root, 'replicas.json');
  await writeFile(
    file,
    `${JSON.stringify({ createdAt: new Date().toISOString(), load: os.loadavg(), replicas, embedded, workers }, null, 2)}\n`,
  );
  process.stdout.write(`\nfigures: ${file}\n`);
}

/** Benchmark mode (perf/bench-mode.ts): 20 instances × 3 predictions, vs `tandem eval` in a loop; resume. */
async function benchModeScenario(file: string): Promise<void> {
  log('benchmark mode (perf/bench-mode.ts)…');
  try {
    const { runBenchModeBench, printBenchModeFigures } = await import('./bench-mode.ts');
    const figures = await runBenchModeBench();
    printBenchModeFigures(figures);
    await writeFile(file.replace(/\.json$/, '.bench-mode.json'), `${JSON.stringify(figures, null, 2)}\n`);
  } catch (err) {
    process.stdout.write(`\nbench mode: the scenario failed: ${(err as Error).message}\n`);
  }
}

/** The real npm case (perf/real-case.ts, generated at run time), about 10–20 min; BENCH_REAL=0 skips it. */
async function realCaseScenario(file: string, network: string, ca?: string): Promise<void> {
  log('real multi-repository npm case (perf/real-case.ts; BENCH_REAL=0 skips it)…');
  try {
    const { runRealCase, printRealCase } = await import('./real-case.ts');
    const figures = await runRealCase({ network, ...(ca ? { caBundle: ca } : {}) });
    printRealCase(figures);
    await writeFile(file.replace(/\.json$/, '.real-case.json'), `${JSON.stringify(figures, null, 2)}\n`);
  } catch (err) {
    process.stdout.write(`\nreal case: the scenario failed: ${(err as Error).message}\n`);
  }
}

/** The App scenario (perf/app-bench.ts, issue 22's load); its failure is reported, not fatal. */
async function appScenario(): Promise<unknown> {
  const appBench = path.join(ROOT, 'perf', 'app-bench.ts');
  if (!existsSync(appBench)) return undefined;
  log('App scenario (perf/app-bench.ts: 100 sets, 1,000 deliveries, a kill mid-burst)…');
  try {
    const mod = (await import(appBench)) as typeof import('./app-bench.ts');
    const a = await mod.runAppBench();
    process.stdout.write(
      `\nApp: webhook → 2xx p50 ${a.p50Ms.toFixed(1)} ms, p99 ${a.p99Ms.toFixed(1)} ms (${a.parallel} in flight); ` +
        `RSS idle ${a.idleRssMb.toFixed(0)} MB, max ${a.maxRssMb.toFixed(0)} MB; last delivery → every final head ` +
        `completed ${a.lastDeliveryToChecksS} s, comments ${a.lastDeliveryToCommentsS} s; kill → listening ` +
        `${a.killToListeningMs} ms, → first completed evaluation ${a.killToFirstCompletedMs} ms; lost ` +
        `${a.lost.checks}/${a.lost.comments}, duplicated ${a.duplicated.checks}/${a.duplicated.comments}, orphaned ` +
        `${a.orphaned.checks} (checks/comments)\n`,
    );
    return a;
  } catch (err) {
    process.stdout.write(`\nApp: the scenario failed: ${(err as Error).message}\n`);
    return { error: (err as Error).message };
  }
}

await main();
