/**
 * The naive baseline Tandem is measured against: what a script without caches does for each of
 * the 2^N configurations. Per configuration, with the same parallelism as Tandem (`jobs`):
 *   - a fresh `git clone` of every repository from its http:// URL (the whole history, as
 *     `git clone https://github.com/...` transfers it), checkout of base or head;
 *   - the hidden tests copied into the fresh workspace;
 *   - a fresh container (dockerode, like Tandem; `host` network only when there is an install);
 *   - `npm ci` per repository inside it (deps variant), with an empty npm cache;
 *   - the suite's test commands, unchanged, with the same TANDEM_* variables and limits.
 */
import { execFile } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { promisify } from 'node:util';
import Docker from 'dockerode';
import pLimit from 'p-limit';
import { type PlannedConfiguration, planMatrix } from '../src/core/matrix-plan.ts';
import { testSeconds } from './engine-bench.ts';
import type { BenchCase } from './generate-case.ts';

const exec = promisify(execFile);
const IDLE = 'trap "exit 0" TERM; while :; do sleep 3600 & wait; done';
const CA_PATH = '/etc/ssl/certs/ca-certificates.crt';

export interface NaiveConfiguration {
  id: string;
  totalMs: number;
  cloneMs: number;
  containerMs: number;
  installMs: number;
  /** Σ of the test commands' own time, measured inside the container. */
  testMs: number;
  passed: number;
  failed: number;
}

export interface NaiveRun {
  wallMs: number;
  jobs: number;
  configurations: NaiveConfiguration[];
}

export interface NaiveOptions {
  jobs: number;
  /** Scratch folder for the per-configuration workspaces. */
  workDir: string;
  prepareNetwork: string;
  caBundle?: string;
}

export async function runNaiveBaseline(c: BenchCase, opts: NaiveOptions): Promise<NaiveRun> {
  const docker = new Docker();
  const plan = planMatrix(
    c.repos.map((r) => r.repo),
    'full',
  );
  const limit = pLimit(opts.jobs);
  const started = performance.now();
  const configurations = await Promise.all(
    plan.configurations.map((cfg) => limit(() => runConfiguration(docker, c, cfg, opts))),
  );
  return { wallMs: performance.now() - started, jobs: opts.jobs, configurations };
}

async function runConfiguration(
  docker: Docker,
  c: BenchCase,
  cfg: PlannedConfiguration,
  opts: NaiveOptions,
): Promise<NaiveConfiguration> {
  const t0 = performance.now();
  await mkdir(opts.workDir, { recursive: true });
  const ws = await mkdtemp(path.join(opts.workDir, `naive-${cfg.id}-`));
  let container: Docker.Container | undefined;
  try {
    for (const r of c.repos) {
      const dir = path.join(ws, r.name);
      await exec('git', ['clone', '--quiet', r.url, dir]);
      await exec('git', ['-C', dir, 'checkout', '--quiet', cfg.applied.includes(r.repo) ? r.head : r.base]);
    }
    for (const g of c.groups) {
      await mkdir(path.join(ws, '.hidden', g.name), { recursive: true });
      await copyFile(g.hiddenFile, path.join(ws, '.hidden', g.name, path.basename(g.hiddenFile)));
    }
    await mkdir(path.join(ws, '.results'));
    const t1 = performance.now();

    const install = c.prepare !== undefined;
    const mounts: Docker.MountSettings[] = [{ Type: 'bind', Source: ws, Target: '/w', ReadOnly: false }];
    const env = [
      'HOME=/tmp',
      'TANDEM_WORKSPACE=/w',
      'TANDEM_RESULTS=/w/.results',
      `TANDEM_CONFIGURATION=${cfg.id}`,
    ];
    if (install && opts.caBundle) {
      mounts.push({ Type: 'bind', Source: opts.caBundle, Target: CA_PATH, ReadOnly: true });
      env.push(`NODE_EXTRA_CA_CERTS=${CA_PATH}`, `npm_config_cafile=${CA_PATH}`);
    }
    container = await docker.createContainer({
      Image: c.image,
      Cmd: ['sh', '-c', IDLE],
      WorkingDir: '/w',
      Env: env,
      ...(install ? {} : { NetworkDisabled: true }),
      HostConfig: {
        NetworkMode: install ? opts.prepareNetwork : 'none',
        Mounts: mounts,
        Memory: c.limits.memoryBytes,
        MemorySwap: c.limits.memoryBytes,
        NanoCpus: c.limits.cpus * 1e9,
        PidsLimit: c.limits.pids,
      },
    });
    await container.start();
    const t2 = performance.now();

    if (install) {
      for (const r of c.repos) {
        const res = await execToEnd(docker, container, `cd /w/${r.name} && ${c.prepare}`, []);
        if (res.exitCode !== 0)
          throw new Error(`naive npm ci in ${r.name} (${cfg.id}) failed:\n${res.output}`);
      }
    }
    const t3 = performance.now();

    const { testMs, passed, failed } = await runTestGroups(docker, container, ws, c.groups, {
      emptyFails: false,
    });
    const t4 = performance.now();
    return {
      id: cfg.id,
      totalMs: t4 - t0,
      cloneMs: t1 - t0,
      containerMs: t2 - t1,
      installMs: t3 - t2,
      testMs: Math.round(testMs),
      passed,
      failed,
    };
  } finally {
    await container?.remove({ force: true, v: true }).catch(() => {});
    await rm(ws, { recursive: true, force: true });
  }
}

/**
 * Runs each test group by hand (`docker exec`) and counts its JUnit cases: the test commands' own
 * time (their timing lines), passed and failed cases. `emptyFails`: a group that wrote no results
 * counts as one failure, as Tandem counts it.
 */
export async function runTestGroups(
  docker: Docker,
  container: Docker.Container,
  ws: string,
  groups: ReadonlyArray<{ name: string; run: string; resultFile: string }>,
  opts: { emptyFails: boolean },
): Promise<{ testMs: number; passed: number; failed: number }> {
  let testMs = 0;
  let passed = 0;
  let failed = 0;
  for (const g of groups) {
    const res = await execToEnd(docker, container, g.run, [`TANDEM_HIDDEN=/w/.hidden/${g.name}`]);
    testMs += (testSeconds(res.output) ?? 0) * 1000;
    const xml = await readFile(path.join(ws, '.results', g.resultFile), 'utf8').catch(() => '');
    const cases = (xml.match(/<testcase\b/g) ?? []).length;
    const failures = (xml.match(/<failure\b/g) ?? []).length;
    passed += cases - failures;
    failed += opts.emptyFails && cases === 0 ? 1 : failures;
  }
  return { testMs, passed, failed };
}

/** `docker exec sh -c <cmd>` to the end: exit code and combined output (the real case's naive side too). */
export async function execToEnd(
  docker: Docker,
  container: Docker.Container,
  cmd: string,
  env: string[],
): Promise<{ exitCode: number | null; output: string }> {
  const e = await container.exec({
    Cmd: ['sh', '-c', cmd],
    Env: env,
    AttachStdout: true,
    AttachStderr: true,
  });
  const stream = await e.start({ hijack: true, stdin: false });
  let output = '';
  const sink = new PassThrough();
  sink.on('data', (d: Buffer) => {
    output = (output + d.toString()).slice(-16_000);
  });
  docker.modem.demuxStream(stream, sink, sink);
  await new Promise<void>((resolve) => {
    stream.once('end', resolve);
    stream.once('close', resolve);
    stream.once('error', () => resolve());
  });
  for (let i = 0; i < 40; i++) {
    const info = await e.inspect();
    if (!info.Running) return { exitCode: info.ExitCode, output };
    await new Promise((r) => setTimeout(r, 25));
  }
  return { exitCode: null, output };
}
