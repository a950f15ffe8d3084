/**
 * The naive way on the real case (perf/real-case-spec.ts), what a script without caches does for
 * each of the 8 configurations, with the same parallelism as Tandem (`jobs`):
 *   - a fresh `git clone` of each repository from its http:// URL, checkout of `main` or `pr`;
 *   - a fresh container (host network and the host CA bundle: the installs reach the registry),
 *     an empty npm cache, the suite's install in each repository, in producer→consumer order;
 *   - wiring by hand: each consumer's installed copy of a producer replaced by a link to the
 *     producer's checkout (Node resolves the producer's own dependencies from its real path);
 *   - the suite's test commands, unchanged (hidden tests under the workspace, never in a clone
 *     that is pushed anywhere), the same TANDEM_* variables and limits; the container removed.
 * Its figures use naive-baseline.ts's shapes (NaiveRun, NaiveConfiguration).
 */
import { execFile } from 'node:child_process';
import { cp, mkdir, mkdtemp, rm } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import Docker from 'dockerode';
import pLimit from 'p-limit';
import { type PlannedConfiguration, planMatrix } from '../src/core/matrix-plan.ts';
import { execToEnd, type NaiveConfiguration, type NaiveRun, runTestGroups } from './naive-baseline.ts';
import { IMAGE, INSTALL, LIMITS, REAL_REPOS, testCommand, WIRING } from './real-case-spec.ts';

const exec = promisify(execFile);
const IDLE = 'trap "exit 0" TERM; while :; do sleep 3600 & wait; done';
const CA_PATH = '/etc/ssl/certs/ca-certificates.crt';

export interface RealNaiveOptions {
  jobs: number;
  /** Scratch folder for the per-configuration workspaces. */
  workDir: string;
  /** The evaluator folder holding hidden/<name>/tests. */
  evaluatorDir: string;
  urlOf: (name: string) => string;
  network: string;
  caBundle?: string;
}

export async function runRealNaive(opts: RealNaiveOptions): Promise<NaiveRun> {
  const docker = new Docker();
  const plan = planMatrix(
    REAL_REPOS.map((r) => r.repo),
    'full',
  );
  const limit = pLimit(opts.jobs);
  const started = performance.now();
  const configurations = await Promise.all(
    plan.configurations.map((cfg) => limit(() => runConfiguration(docker, cfg, opts))),
  );
  return { wallMs: performance.now() - started, jobs: opts.jobs, configurations };
}

const nameOf = (repo: string) => REAL_REPOS.find((r) => r.repo === repo)!.name;

/** Shell lines that replace each consumer's installed producer with a link to the producer's checkout. */
export function wireByHand(): string {
  return WIRING.map((w) => {
    const at = `/w/${nameOf(w.into)}/node_modules/${w.name}`;
    return `rm -rf ${at} && ln -s /w/${nameOf(w.repo)} ${at}`;
  }).join(' && ');
}

async function runConfiguration(
  docker: Docker,
  cfg: PlannedConfiguration,
  opts: RealNaiveOptions,
): Promise<NaiveConfiguration> {
  const t0 = performance.now();
  await mkdir(opts.workDir, { recursive: true });
  const ws = await mkdtemp(path.join(opts.workDir, `naive-${cfg.id}-`));
  let container: Docker.Container | undefined;
  try {
    for (const r of REAL_REPOS) {
      const dir = path.join(ws, r.name);
      await exec('git', ['clone', '--quiet', opts.urlOf(r.name), dir]);
      await exec('git', [
        '-C',
        dir,
        'checkout',
        '--quiet',
        cfg.applied.includes(r.repo) ? 'origin/pr' : 'main',
      ]);
    }
    for (const r of REAL_REPOS)
      await cp(path.join(opts.evaluatorDir, 'hidden', r.name), path.join(ws, '.hidden', r.name), {
        recursive: true,
      });
    await mkdir(path.join(ws, '.results'));
    await mkdir(path.join(ws, '.npm'));
    const t1 = performance.now();

    const mounts: Docker.MountSettings[] = [{ Type: 'bind', Source: ws, Target: '/w', ReadOnly: false }];
    const env = [
      'HOME=/tmp',
      'TANDEM_WORKSPACE=/w',
      'TANDEM_RESULTS=/w/.results',
      `TANDEM_CONFIGURATION=${cfg.id}`,
      // A fresh, empty npm cache per configuration.
      'npm_config_cache=/w/.npm',
    ];
    if (opts.caBundle) {
      mounts.push({ Type: 'bind', Source: opts.caBundle, Target: CA_PATH, ReadOnly: true });
      env.push(`NODE_EXTRA_CA_CERTS=${CA_PATH}`, `npm_config_cafile=${CA_PATH}`);
    }
    container = await docker.createContainer({
      Image: IMAGE,
      Cmd: ['sh', '-c', IDLE],
      WorkingDir: '/w',
      Env: env,
      HostConfig: {
        NetworkMode: opts.network,
        Mounts: mounts,
        Memory: LIMITS.memoryBytes,
        MemorySwap: LIMITS.memoryBytes,
        NanoCpus: LIMITS.cpus * 1e9,
        PidsLimit: LIMITS.pids,
      },
    });
    await container.start();
    const t2 = performance.now();

    for (const r of REAL_REPOS) {
      const res = await execToEnd(docker, container, `cd /w/${r.name} && ${INSTALL}`, []);
      if (res.exitCode !== 0)
        throw new Error(`naive install in ${r.name} (${cfg.id}) failed:\n${res.output}`);
    }
    const wired = await execToEnd(docker, container, wireByHand(), []);
    if (wired.exitCode !== 0) throw new Error(`naive wiring (${cfg.id}) failed:\n${wired.output}`);
    const t3 = performance.now();

    const groups = REAL_REPOS.map((r) => ({
      name: r.name,
      run: testCommand(r),
      resultFile: `${r.name}.xml`,
    }));
    // A group that wrote no results failed as a whole, like Tandem counts it.
    const { testMs, passed, failed } = await runTestGroups(docker, container, ws, groups, {
      emptyFails: true,
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
