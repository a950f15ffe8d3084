/**
 * Benchmark mode at scale: 20 generated two-repository instances × 3 predictions (60 predictions,
 * one configuration each) scored by `tandem bench run`, against `tandem eval` run once per
 * prediction in a loop (the way one would score them without bench mode); then a bench run killed
 * halfway and resumed. Figures: configurations per minute on each side and their ratio
 * (target ≥ 2×), and the time the resumed half takes.
 *
 *   npx tsx perf/bench-mode.ts        (also run by `npm run bench`)
 */
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import YAML from 'yaml';
import { git, gitOut } from '../src/engine/git/git.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const INSTANCES = Number(process.env.BENCH_MODE_INSTANCES ?? 20);
const MODELS = ['m-resolves', 'm-misses-web', 'm-wrong-web'] as const;
const JOBS = Math.max(1, Math.min(4, os.availableParallelism()));
const log = (s: string) => process.stderr.write(`bench-mode: ${s}\n`);

export interface Generated {
  instancesFile: string;
  predictionsFile: string;
  /** Per prediction, a case file for `tandem eval` (patch targets = candidate + test patch). */
  caseFiles: string[];
}

async function repo(
  dir: string,
  files: Record<string, string>,
): Promise<{ url: string; sha: string; work: string }> {
  const work = `${dir}-work`;
  await git(['-c', 'init.defaultBranch=main', 'init', '--quiet', work]);
  for (const [f, c] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(work, f)), { recursive: true });
    await writeFile(path.join(work, f), c);
  }
  await git(['add', '--all'], { cwd: work });
  await git(['-c', 'user.name=b', '-c', 'user.email=b@example.com', 'commit', '--quiet', '-m', 'base'], {
    cwd: work,
  });
  await git(['clone', '--quiet', '--bare', work, dir]);
  return { url: dir, sha: (await gitOut(['rev-parse', 'HEAD'], { cwd: work })).trim(), work };
}

async function diffOf(work: string, files: Record<string, string>): Promise<string> {
  for (const [f, c] of Object.entries(files)) await writeFile(path.join(work, f), c);
  await git(['add', '--all'], { cwd: work });
  const d = await gitOut(['diff', '--cached', '--no-color'], { cwd: work });
  await git(['reset', '--quiet', '--hard', 'HEAD'], { cwd: work });
  return d ? `${d}\n` : '';
}

const tap = (file: string, checks: Array<[string, string]>) =>
  [
    '#!/bin/sh',
    `p="$TANDEM_RESULTS/.${file}"; echo "TAP version 13" > "$p"; echo "1..${checks.length}" >> "$p"`,
    ...checks.map(
      ([name, cmd], i) =>
        `if ( ${cmd} ) 2>/dev/null; then echo "ok ${i + 1} - ${name}" >> "$p"; else echo "not ok ${i + 1} - ${name}" >> "$p"; fi`,
    ),
    `mv "$p" "$TANDEM_RESULTS/${file}"`,
    '',
  ].join('\n');

export async function generate(root: string): Promise<Generated> {
  const apiFiles: Record<string, string> = {};
  const webFiles: Record<string, string> = { README: 'web\n' };
  for (let k = 0; k < INSTANCES; k++) {
    apiFiles[`f${k}/FIELD`] = 'old\n';
    apiFiles[`f${k}/tests/allowed`] = 'old\n';
    webFiles[`f${k}/ACCEPTS`] = 'old\n';
  }
  const api = await repo(path.join(root, 'remotes', 'api.git'), apiFiles);
  const web = await repo(path.join(root, 'remotes', 'web.git'), webFiles);
  const instances: string[] = [];
  const predictions: string[] = [];
  const caseFiles: string[] = [];
  for (let k = 0; k < INSTANCES; k++) {
    const checks = {
      api: [
        [`api ${k} emits an allowed field`, `grep -qxE "$(cat api/f${k}/tests/allowed)" api/f${k}/FIELD`],
      ],
      web: [
        [
          `web ${k} accepts the api field`,
          `grep -qw "$(cat api/f${k}/FIELD)" web/f${k}/ACCEPTS && ! grep -qw old web/f${k}/ACCEPTS`,
        ],
        [`web ${k} keeps its readme`, 'test -f web/README'],
      ],
    } as const;
    const suiteDir = path.join(root, 'evaluator', `i${k}`);
    await mkdir(path.join(suiteDir, 'hidden'), { recursive: true });
    await writeFile(
      path.join(suiteDir, 'hidden', 'api.sh'),
      tap('api.tap', checks.api as unknown as Array<[string, string]>),
    );
    await writeFile(
      path.join(suiteDir, 'hidden', 'web.sh'),
      tap('web.tap', checks.web as unknown as Array<[string, string]>),
    );
    const group = (name: string, repoName: string) => ({
      name,
      repo: repoName,
      files: [`hidden/${name}.sh`],
      run: `sh $TANDEM_HIDDEN/${name}.sh`,
      results: { format: 'tap', path: `${name}.tap` },
    });
    const f2p = [`api::::api ${k} emits an allowed field`, `web::::web ${k} accepts the api field`];
    const p2p = [`web::::web ${k} keeps its readme`];
    const suite = {
      name: `i${k}`,
      image: 'tandem/sandbox:node20',
      tests: [group('api', 'acme/api'), group('web', 'acme/web')],
      fail_to_pass: f2p,
      pass_to_pass: p2p,
    };
    await writeFile(path.join(suiteDir, 'suite.yml'), YAML.stringify(suite));
    const testPatch = await diffOf(api.work, { [`f${k}/tests/allowed`]: 'amount|total\n' });
    const gold = {
      api: await diffOf(api.work, { [`f${k}/FIELD`]: 'amount\n' }),
      web: await diffOf(web.work, { [`f${k}/ACCEPTS`]: 'amount total\n' }),
    };
    instances.push(
      JSON.stringify({
        instance_id: `i${k}`,
        repos: [
          { repo: 'acme/api', url: api.url, base_commit: api.sha, patch: gold.api, test_patch: testPatch },
          { repo: 'acme/web', url: web.url, base_commit: web.sha, patch: gold.web },
        ],
        suite: `evaluator/i${k}/suite.yml`,
        FAIL_TO_PASS: f2p,
        PASS_TO_PASS: p2p,
      }),
    );
    const byModel: Record<(typeof MODELS)[number], { api: string; web: string }> = {
      'm-resolves': { api: await diffOf(api.work, { [`f${k}/FIELD`]: 'total\n' }), web: gold.web },
      'm-misses-web': { api: gold.api, web: '' },
      'm-wrong-web': { api: gold.api, web: await diffOf(web.work, { [`f${k}/ACCEPTS`]: 'amount old\n' }) },
    };
    for (const model of MODELS) {
      const p = byModel[model];
      predictions.push(
        JSON.stringify({
          instance_id: `i${k}`,
          model_name_or_path: model,
          model_patches: { 'acme/api': p.api, 'acme/web': p.web },
        }),
      );
      // The loop's case: the candidate and the test patch as one patch per target (they touch
      // different files here, so concatenating them applies).
      const dir = path.join(root, 'eval', model, `i${k}`);
      await mkdir(dir, { recursive: true });
      await writeFile(path.join(dir, 'api.diff'), p.api + testPatch);
      await writeFile(path.join(dir, 'web.diff'), p.web || '');
      const targets = [
        { repo: 'acme/api', url: api.url, base: api.sha, patch: 'api.diff' },
        ...(p.web ? [{ repo: 'acme/web', url: web.url, base: web.sha, patch: 'web.diff' }] : []),
      ];
      const context = p.web ? [] : [{ repo: 'acme/web', url: web.url, ref: web.sha }];
      const file = path.join(dir, 'case.yml');
      await writeFile(
        file,
        YAML.stringify({ name: `${model}-i${k}`, suite: path.join(suiteDir, 'suite.yml'), targets, context }),
      );
      caseFiles.push(file);
    }
  }
  const instancesFile = path.join(root, 'instances.jsonl');
  const predictionsFile = path.join(root, 'predictions.jsonl');
  await writeFile(instancesFile, `${instances.join('\n')}\n`);
  await writeFile(predictionsFile, `${predictions.join('\n')}\n`);
  return { instancesFile, predictionsFile, caseFiles };
}

interface CliRun {
  code: number | null;
  ms: number;
  stderr: string;
}

/**
 * Both sides run the compiled CLI directly (compiled once, before anything is timed): through
 * bin/tandem.js a process recompiles when src/ changed since the last build, which on a tree
 * other work edits during the run charged compile time to whichever side happened to start then
 * (the eval loop's 24 processes, mostly).
 */
const CLI = path.join(ROOT, 'build', 'cli', 'main.js');

async function compileOnce(): Promise<void> {
  const { ensureCurrentBuild } = (await import(path.join(ROOT, 'scripts', 'build-cli.js'))) as {
    ensureCurrentBuild: () => boolean;
  };
  if (!ensureCurrentBuild()) throw new Error('the CLI could not be compiled (npm run build shows why)');
}

function tandem(args: string[], onLine?: (line: string, kill: () => void) => void): Promise<CliRun> {
  const started = Date.now();
  const child = spawn(process.execPath, [CLI, ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NO_COLOR: '1' },
  });
  let stderr = '';
  child.stdout.resume();
  child.stderr.on('data', (d: Buffer) => {
    stderr += d.toString();
    for (const line of d.toString().split('\n')) onLine?.(line, () => child.kill('SIGTERM'));
  });
  return new Promise((resolve) =>
    child.on('close', (code) => resolve({ code, ms: Date.now() - started, stderr })),
  );
}

export interface BenchModeFigures {
  instances: number;
  predictions: number;
  jobs: number;
  bench: { configurations: number; seconds: number; perMinute: number };
  evalLoop: { configurations: number; seconds: number; perMinute: number };
  ratio: number;
  resume: { killedAfter: number; resumedSeconds: number; fullSeconds: number };
}

export async function runBenchModeBench(): Promise<BenchModeFigures> {
  const root = await mkdtemp(path.join(os.tmpdir(), 'tandem-bench-mode-'));
  try {
    await compileOnce();
    log(`generating ${INSTANCES} instances × ${MODELS.length} predictions…`);
    const g = await generate(root);
    // BENCH_MODE_CACHE=1: both sides with their default result cache (configurations with equal
    // states are reused across predictions); otherwise every configuration runs.
    const noCache = process.env.BENCH_MODE_CACHE === '1' ? [] : ['--no-cache'];
    const common = ['--jobs', String(JOBS), ...noCache, '--quiet', '--prepare-network', 'host'];
    // Each side starts from its own empty cache (mirrors, states): scoring the predictions from
    // scratch, the full 2^2 matrix per prediction on both sides.
    const benchCache = ['--cache-dir', path.join(root, 'cache-bench')];
    const evalCache = ['--cache-dir', path.join(root, 'cache-eval')];
    log(`tandem bench run --matrix full: ${g.caseFiles.length} predictions (jobs ${JOBS})…`);
    const runArgs = (runId: string, cache: string[]) => [
      'bench',
      'run',
      '--instances',
      g.instancesFile,
      '--predictions',
      g.predictionsFile,
      '--run-id',
      runId,
      '--runs-dir',
      path.join(root, 'runs'),
      '--matrix',
      'full',
      ...cache,
    ];
    const b = await tandem([...runArgs('r1', benchCache), ...common]);
    if (b.code !== 0) throw new Error(`bench run failed (${b.code}): ${b.stderr.slice(-500)}`);
    const benchConfigs = g.caseFiles.length * 4;

    log(`tandem eval once per prediction (${g.caseFiles.length} processes, --matrix full)…`);
    let evalMs = 0;
    let evalConfigs = 0;
    for (const file of g.caseFiles) {
      const r = await tandem(['eval', file, '--matrix', 'full', ...evalCache, ...common]);
      if (r.code === null || r.code > 1)
        throw new Error(`eval ${file} failed (${r.code}): ${r.stderr.slice(-500)}`);
      evalMs += r.ms;
      evalConfigs += file.includes('m-misses-web') ? 2 : 4;
    }

    log('resume: a bench run killed after half its predictions, then rerun…');
    const resumeArgs = [
      ...runArgs('r2', ['--cache-dir', path.join(root, 'cache-resume')]),
      '--jobs',
      String(JOBS),
      ...noCache,
      '--prepare-network',
      'host',
    ];
    const half = Math.floor(g.caseFiles.length / 2);
    let done = 0;
    await tandem(resumeArgs, (line, kill) => {
      if (/^\s*\[\d+\/\d+\]/.test(line) && ++done === half) kill();
    });
    const resumed = await tandem(resumeArgs);
    const perMin = (n: number, ms: number) => Math.round((n / (ms / 60_000)) * 10) / 10;
    const figures: BenchModeFigures = {
      instances: INSTANCES,
      predictions: g.caseFiles.length,
      jobs: JOBS,
      bench: { configurations: benchConfigs, seconds: b.ms / 1000, perMinute: perMin(benchConfigs, b.ms) },
      evalLoop: {
        configurations: evalConfigs,
        seconds: evalMs / 1000,
        perMinute: perMin(evalConfigs, evalMs),
      },
      ratio: 0,
      resume: { killedAfter: done, resumedSeconds: resumed.ms / 1000, fullSeconds: b.ms / 1000 },
    };
    figures.ratio = Math.round((figures.bench.perMinute / figures.evalLoop.perMinute) * 100) / 100;
    return figures;
  } finally {
    if (!process.env.BENCH_KEEP) await rm(root, { recursive: true, force: true });
    else log(`kept ${root}`);
  }
}

export function printBenchModeFigures(f: BenchModeFigures): void {
  process.stdout.write(
    `\nbench mode (${f.instances} instances × ${f.predictions / f.instances} predictions, jobs ${f.jobs}, result cache ${process.env.BENCH_MODE_CACHE === '1' ? 'on' : 'off'}):\n` +
      `  tandem bench run   ${f.bench.configurations} configurations in ${f.bench.seconds.toFixed(1)} s = ${f.bench.perMinute}/min\n` +
      `  tandem eval loop   ${f.evalLoop.configurations} configurations in ${f.evalLoop.seconds.toFixed(1)} s = ${f.evalLoop.perMinute}/min\n` +
      `  ${f.ratio >= 2 ? 'PASS' : 'FAIL'} configurations/minute ${f.ratio}× the eval loop (target ≥ 2×)\n` +
      `  resume: killed after ${f.resume.killedAfter}/${f.predictions}; the rerun took ${f.resume.resumedSeconds.toFixed(1)} s (whole run ${f.resume.fullSeconds.toFixed(1)} s)\n`,
  );
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  printBenchModeFigures(await runBenchModeBench());
}
