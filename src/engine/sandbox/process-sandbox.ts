import { spawn } from 'node:child_process';
import { lstat, mkdir, readdir, rm, rmdir, symlink } from 'node:fs/promises';
import { constants } from 'node:os';
import path from 'node:path';
import { InfraError } from '../../core/errors.ts';
import { GroupResults } from '../results/group-results.ts';
import type { OutputTail } from '../results/output-tail.ts';
import { linkWiring, workspaceVariables } from './process-links.ts';
import { RunGuard } from './run-guard.ts';
import type { ConfigurationRunSpec, PrepareSpec, Sandbox } from './sandbox.ts';
import {
  aborted,
  CA_BUNDLE_VARIABLES,
  type CommandResult,
  DOWNLOAD_CACHE_VARIABLES,
  runPrepareCommands,
  runSteps,
} from './step-sequence.ts';

/** One configuration or prepare: its guard, and the process groups it started. */
interface ProcessRun {
  guard: RunGuard;
  groups: Set<number>;
}

/**
 * Runs commands as plain host processes: for development machines without Docker.
 * It is NOT a sandbox, and reports say so (`kind: 'process'`):
 *  - memory, cpu and pids limits are not enforced (oomKilled is always false);
 *  - the network is not blocked;
 *  - read-only mounts are symlinks into the workspace and hidden files are plain folders: a
 *    command can write to them;
 *  - TANDEM_* point at host paths.
 * PR code gets a short allowlist of the host's environment (`hostBasics`), never Tandem's own.
 * What it does keep: the environment variables, working directories, step and configuration
 * timeouts (each command runs in its own process group, killed as a whole), output tails, and
 * the same outcome shapes and step order (step-sequence.ts) as DockerSandbox.
 */
export class ProcessSandbox implements Sandbox {
  readonly kind = 'process' as const;
  /** Process groups of every command started and not yet cleaned up. */
  private readonly groups = new Set<number>();
  private readonly guards = new Set<RunGuard>();
  private disposed = false;

  async imageId(_image: string): Promise<string> {
    return 'process';
  }

  // Return types come from step-sequence.ts (ConfigurationRunOutcome, PrepareOutcome).
  async runConfiguration(spec: ConfigurationRunSpec) {
    const configuration = spec.configurationId;
    // Nothing to do ahead here: just wait for the slot.
    await spec.startGate;
    const run = this.begin(spec.timeoutSec, spec.signal, configuration);
    let links: string[] = [];
    const baseEnv = {
      ...hostBasics(process.env),
      TANDEM_WORKSPACE: spec.workspaceDir,
      TANDEM_RESULTS: spec.resultsDir,
      TANDEM_CONFIGURATION: configuration,
      ...workspaceVariables(spec),
    };
    try {
      links = await linkMounts(spec);
      links.push(...(await linkWiring(spec)));
      const results = await GroupResults.create(
        spec.resultsDir,
        path.join(path.dirname(spec.resultsDir), 'results-taken'),
      );
      return await runSteps(
        spec,
        () => run.guard.reason,
        async (step, tail) => {
          const env = { ...baseEnv, TANDEM_HIDDEN: step.hiddenDir ?? spec.hiddenRoot };
          const command = (e: NodeJS.ProcessEnv) =>
            this.command(run, step.run, spec.workspaceDir, e, step.timeoutSec * 1000, tail);
          const index = spec.tests.indexOf(step);
          if (index < 0) return command(env);
          // Each group gets a fresh results folder of its own, as in Docker (group-results.ts).
          const folder = GroupResults.folderName(index);
          const { value, resultFile } = await results.during(folder, step.resultsPath, () =>
            command({ ...env, TANDEM_RESULTS: path.join(spec.resultsDir, folder) }),
          );
          return { ...value, ...(resultFile ? { resultFile } : {}) };
        },
      );
    } finally {
      this.end(run);
      await Promise.all(links.map((l) => rm(l, { force: true })));
    }
  }

  async prepare(spec: PrepareSpec) {
    const run = this.begin(spec.timeoutSec, spec.signal);
    const env: NodeJS.ProcessEnv = {
      ...hostBasics(process.env, PREPARE_VARIABLES),
      TANDEM_WORKSPACE: path.dirname(path.resolve(spec.repoDir)),
    };
    if (spec.caBundle) {
      const ca = path.resolve(spec.caBundle);
      for (const name of CA_BUNDLE_VARIABLES) env[name] = ca;
    }
    if (spec.downloadCache) {
      for (const [name, sub] of Object.entries(DOWNLOAD_CACHE_VARIABLES))
        env[name] = path.join(path.resolve(spec.downloadCache), sub);
    }
    const started = Date.now();
    try {
      return await runPrepareCommands(
        spec,
        () => run.guard.reason,
        started,
        (command, tail) => this.command(run, command, spec.repoDir, env, Number.POSITIVE_INFINITY, tail),
      );
    } finally {
      this.end(run);
    }
  }

  async dispose(): Promise<void> {
    this.disposed = true;
    for (const guard of this.guards) guard.stop('abort');
    for (const pgid of this.groups) killGroup(pgid);
    this.groups.clear();
  }

  /** Deadline and abort handling for one configuration or prepare: a stop kills its process groups. */
  private begin(timeoutSec: number, signal: AbortSignal | undefined, configuration?: string): ProcessRun {
    if (this.disposed || signal?.aborted) throw aborted(configuration);
    const groups = new Set<number>();
    const guard = new RunGuard(
      () => {
        for (const pgid of groups) killGroup(pgid);
      },
      timeoutSec * 1000,
      signal,
    );
    this.guards.add(guard);
    return { guard, groups };
  }

  private end({ guard, groups }: ProcessRun): void {
    guard.close();
    this.guards.delete(guard);
    // Like removing a container: background processes a step left behind go too.
    for (const pgid of groups) {
      killGroup(pgid);
      this.groups.delete(pgid);
    }
  }

  private command(
    run: ProcessRun,
    command: string,
    cwd: string,
    env: NodeJS.ProcessEnv,
    timeoutMs: number,
    tail: OutputTail,
  ): Promise<CommandResult> {
    const started = Date.now();
    return new Promise((resolve, reject) => {
      // detached: the command leads its own process group, so a timeout kills its whole tree.
      const child = spawn('sh', ['-c', command], {
        cwd,
        env,
        detached: true,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const pgid = child.pid;
      if (pgid !== undefined) {
        run.groups.add(pgid);
        this.groups.add(pgid);
      }
      child.stdout.on('data', (c: Buffer) => tail.push(c));
      child.stderr.on('data', (c: Buffer) => tail.push(c));
      let stepTimedOut = false;
      const timer = Number.isFinite(timeoutMs)
        ? setTimeout(() => {
            stepTimedOut = true;
            if (pgid !== undefined) killGroup(pgid);
          }, timeoutMs)
        : undefined;
      child.once('error', (err) => {
        clearTimeout(timer);
        reject(new InfraError('engine', `could not run a command in ${cwd}: ${err.message}`));
      });
      let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
      let finished = false;
      const finish = () => {
        if (finished || !exit) return;
        finished = true;
        child.stdout.destroy();
        child.stderr.destroy();
        const durationMs = Date.now() - started;
        const reason = run.guard.reason;
        if (reason || stepTimedOut) {
          resolve({
            exitCode: null,
            timedOut: stepTimedOut || reason === 'timeout',
            oomKilled: false,
            durationMs,
          });
          return;
        }
        const { code, signal } = exit;
        resolve({
          exitCode: code ?? (signal ? 128 + (constants.signals[signal] ?? 0) : null),
          timedOut: false,
          oomKilled: false,
          durationMs,
        });
      };
      child.once('exit', (code, signal) => {
        clearTimeout(timer);
        exit = { code, signal };
        // A background child may hold the pipes open: stop reading shortly after the command exits.
        setTimeout(finish, 300).unref();
      });
      child.once('close', finish);
    });
  }
}

/** What a host command needs to find its tools; nothing else of Tandem's environment. */
const BASIC_VARIABLES = ['PATH', 'HOME', 'USER', 'LANG', 'LC_ALL', 'TMPDIR', 'TERM', 'TZ'];
/** `prepare` installs dependencies over the network: it may need the host's proxy. */
const PREPARE_VARIABLES = ['HTTP_PROXY', 'HTTPS_PROXY', 'NO_PROXY', 'http_proxy', 'https_proxy', 'no_proxy'];

/**
 * The environment PR code gets as a host process: an allowlist, never the whole of Tandem's own
 * (an App started from `.env` holds its private key and webhook secret there).
 */
export function hostBasics(env: NodeJS.ProcessEnv, extra: readonly string[] = []): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = {};
  for (const name of [...BASIC_VARIABLES, ...extra]) if (env[name] !== undefined) out[name] = env[name];
  return out;
}

function killGroup(pgid: number): void {
  try {
    process.kill(-pgid, 'SIGKILL');
  } catch {
    // ESRCH: the group is already gone.
  }
}

/** Readonly mounts become symlinks in the workspace (not read-only: see the class comment). */
async function linkMounts(spec: ConfigurationRunSpec): Promise<string[]> {
  const links: string[] = [];
  const root = path.resolve(spec.workspaceDir);
  for (const m of spec.readonlyMounts) {
    const link = path.resolve(root, m.workspacePath);
    if (!link.startsWith(root + path.sep)) throw new Error(`path "${m.workspacePath}" escapes the workspace`);
    await mkdir(path.dirname(link), { recursive: true });
    const existing = await lstat(link).catch(() => null);
    if (existing?.isSymbolicLink()) await rm(link);
    else if (existing?.isDirectory() && (await readdir(link)).length === 0) await rmdir(link);
    else if (existing)
      throw new InfraError('engine', `cannot place ${m.workspacePath}: it already exists in the workspace`);
    await symlink(path.resolve(m.hostPath), link, 'dir');
    links.push(link);
  }
  return links;
}
