/**
 * The real multi-repository npm case (perf/real-case-spec.ts): cold Tandem against the naive way
 * (real-naive.ts: fresh clones, fresh installs, fresh container per configuration), 8
 * configurations each, side by side in one run. A step of `npm run bench` (BENCH_REAL=0 skips it);
 * alone: `npx tsx perf/real-case.ts`. The repositories are generated here (real-case-repos.ts) and
 * served over smart HTTP on loopback as serve-case.ts serves the generated case; the installs reach
 * the npm registry (host network and CA bundle for the containers that install).
 */
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { loadCase } from '../src/engine/case-loader.ts';
import { detectPrepareNetwork } from '../src/engine/docker/docker-network.ts';
import { defaultJobs } from '../src/engine/evaluation-request.ts';
import { startGitHttpServer } from '../test/support/git-http-server.ts';
import { runEngineBench, type TandemRun } from './engine-bench.ts';
import type { BenchCase } from './generate-case.ts';
import { type LoadFigures, sampleLoad } from './load-sample.ts';
import type { NaiveRun } from './naive-baseline.ts';
import { median, sec } from './print-figures.ts';
import { layRealCase } from './real-case-repos.ts';
import { caseYaml, IMAGE, INSTALL, LIMITS, REAL_REPOS, testCommand } from './real-case-spec.ts';
import { runRealNaive } from './real-naive.ts';

const HOST_CA = '/etc/ssl/certs/ca-certificates.crt';
/** The target: cold Tandem at least this many times faster than the naive way. */
export const REAL_SPEEDUP_TARGET = 10;

export interface RealCaseFigures {
  jobs: number;
  served: string;
  /** Packages npm installed in each of Tandem's prepared folders (3 bases, 3 heads; in no order). */
  packagesPerPreparedFolder: number[];
  tandem: TandemRun[];
  naive: NaiveRun;
  naiveS: number;
  coldS: number;
  speedup: number;
  /** Σ of the cold run's in-container test-command times ÷ jobs. */
  testAloneS: number;
  verdictsAgree: boolean;
  load: LoadFigures;
}

export interface RealCaseOptions {
  network: string;
  caBundle?: string;
  /** Work folder (removed afterwards unless BENCH_KEEP=1). */
  root?: string;
}

const log = (s: string) => process.stderr.write(`bench: [real] ${s}\n`);

/** Packages npm installed in each prepared folder, from npm's hidden lockfile. */
async function countPackages(cacheDir: string): Promise<number[]> {
  const deps = path.join(cacheDir, 'deps');
  const counts: number[] = [];
  for (const key of existsSync(deps) ? await readdir(deps) : []) {
    const lock = path.join(deps, key, 'node_modules', '.package-lock.json');
    if (!existsSync(lock)) continue;
    const parsed = JSON.parse(await readFile(lock, 'utf8')) as { name?: string; packages?: object };
    counts.push(Object.keys(parsed.packages ?? {}).length);
  }
  return counts;
}

export async function runRealCase(opts: RealCaseOptions): Promise<RealCaseFigures> {
  const root = opts.root ?? (await mkdtemp(path.join(os.tmpdir(), 'tandem-bench-real-')));
  const { remotes, evaluator } = layRealCase(root);
  const server = await startGitHttpServer(remotes);
  const urlOf = (name: string) => `${server.url}/${name}.git`;
  const caseFile = path.join(root, 'case.yml');
  await writeFile(caseFile, caseYaml(urlOf));
  const jobs = defaultJobs((await loadCase(caseFile)).suite);
  // engine-bench.ts reads only the case file; the rest describes the same case (files not counted: 0).
  const benchCase: BenchCase = {
    variant: 'deps',
    dir: root,
    caseFile,
    repos: REAL_REPOS.map((r) => ({
      repo: r.repo,
      name: r.name,
      remoteDir: path.join(remotes, `${r.name}.git`),
      url: urlOf(r.name),
      base: 'main',
      head: 'pr',
      files: 0,
      commits: 1,
    })),
    groups: REAL_REPOS.map((r) => ({
      name: r.name,
      repo: r.repo,
      hiddenFile: path.join(evaluator, 'hidden', r.name),
      run: testCommand(r),
      resultFile: `${r.name}.xml`,
    })),
    prepare: INSTALL,
    image: IMAGE,
    limits: LIMITS,
  };
  const sampler = sampleLoad();
  try {
    const cacheDir = path.join(root, 'cache');
    log(`tandem eval --matrix full: cold (empty cache folder), warm, warm-rerun (jobs ${jobs})…`);
    const tandem = await runEngineBench(benchCase, {
      jobs,
      cacheDir,
      prepareNetwork: opts.network,
      ...(opts.caBundle ? { caBundle: opts.caBundle } : {}),
    });
    const packages = await countPackages(cacheDir);
    log(`naive way: 8 configurations, fresh clones, installs and containers (jobs ${jobs})…`);
    const naive = await runRealNaive({
      jobs,
      workDir: path.join(root, 'naive'),
      evaluatorDir: evaluator,
      urlOf,
      network: opts.network,
      ...(opts.caBundle ? { caBundle: opts.caBundle } : {}),
    });
    const cold = tandem[0]!;
    const passIds = (xs: Array<{ id: string; pass: boolean }>) =>
      xs
        .filter((x) => x.pass)
        .map((x) => x.id)
        .join(',');
    const naivePass = passIds(
      naive.configurations.map((x) => ({ id: x.id, pass: x.failed === 0 && x.passed > 0 })),
    );
    const tandemPass = passIds(cold.configurations.map((x) => ({ id: x.id, pass: x.outcome === 'pass' })));
    return {
      jobs,
      served: server.url,
      packagesPerPreparedFolder: packages,
      tandem,
      naive,
      naiveS: sec(naive.wallMs),
      coldS: sec(cold.wallMs),
      speedup: naive.wallMs / cold.wallMs,
      testAloneS: sec(cold.configurations.reduce((a, x) => a + (x.testMs ?? 0), 0)) / jobs,
      verdictsAgree:
        naivePass === 'full' &&
        tandemPass === naivePass &&
        cold.outcome === 'resolved' &&
        cold.jointlyNecessary === true,
      load: sampler.stop(),
    };
  } finally {
    await server.close();
    if (process.env.BENCH_KEEP !== '1' && !opts.root) await rm(root, { recursive: true, force: true });
  }
}

export function printRealCase(f: RealCaseFigures): void {
  const [cold, warm, rerun] = f.tandem as [TandemRun, TandemRun, TandemRun];
  const ok = (b: boolean) => (b ? 'PASS' : 'FAIL');
  const n = f.naive.configurations;
  const m = (k: 'cloneMs' | 'containerMs' | 'installMs' | 'testMs') =>
    (median(n.map((x) => x[k])) / 1000).toFixed(1);
  const out = [
    '',
    'Real npm case (generated: acme-visitor-keys → acme-parser → acme-linter, optional chaining; toolchain devDependencies from the npm registry), 8 configurations:',
    `  naive ${f.naiveS.toFixed(0)} s, Tandem cold ${f.coldS.toFixed(0)} s (warm ${sec(warm.wallMs).toFixed(1)} s, warm-rerun ${sec(rerun.wallMs).toFixed(0)} s), test-only ${f.testAloneS.toFixed(0)} s: cold speed-up ${f.speedup.toFixed(1)}×`,
    '',
    'Targets:',
    `  ${ok(f.speedup >= REAL_SPEEDUP_TARGET)} [real] cold ≥ ${REAL_SPEEDUP_TARGET}× faster than naive: ${f.speedup.toFixed(1)}×`,
    `  ${ok(f.verdictsAgree)} [real] Tandem and the naive way agree (only the full configuration passes; resolved, jointly necessary)`,
    '',
    'Details:',
    `  [real] jobs ${f.jobs} on both sides; repositories over ${f.served}; packages installed per prepared folder: ${f.packagesPerPreparedFolder.join(', ')}`,
    `    tandem cold: CLI start ${cold.startupMs === null ? '?' : sec(cold.startupMs).toFixed(1)} s, installs ${cold.prepareS.map((x) => x.toFixed(0)).join(' + ')} s (on ${f.jobs} slots), engine ${sec(cold.engineMs).toFixed(0)} s`,
    `    bound: naive ÷ test-only = ${(f.naiveS / f.testAloneS).toFixed(1)}× (an engine costing nothing beyond the tests themselves)`,
    `    naive per configuration (median): clone ${m('cloneMs')} s, container ${m('containerMs')} s, installs + wiring ${m('installMs')} s, tests ${m('testMs')} s`,
    `  Load average (1 min) ${f.load.before.toFixed(1)} before, ${f.load.after.toFixed(1)} after, ${f.load.mean.toFixed(1)} mean / ${f.load.max.toFixed(1)} max during, on ${f.load.cores} cores`,
  ];
  process.stdout.write(`${out.join('\n')}\n`);
}

/** `npx tsx perf/real-case.ts [work folder]`: this step alone. */
async function main(): Promise<void> {
  const network = await detectPrepareNetwork();
  const caBundle = existsSync(HOST_CA) ? HOST_CA : undefined;
  const root = process.argv[2];
  if (root) await mkdir(root, { recursive: true });
  const f = await runRealCase({ network, ...(caBundle ? { caBundle } : {}), ...(root ? { root } : {}) });
  printRealCase(f);
  const file = path.join(os.tmpdir(), `tandem-bench-real-${Date.now()}.json`);
  await writeFile(file, `${JSON.stringify(f, null, 2)}\n`);
  process.stdout.write(`\nfigures: ${file}\n`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
