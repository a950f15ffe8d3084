import { spawn } from 'node:child_process';
import { lstat, mkdir, readdir, rm, rmdir, symlink } from 'node:fs/promises';
import { constants } from 'node:os';
import path from 'node:path';
import { InfraError } from '../core/errors.ts';
import { OutputTail } from './output-tail.ts';
import type {
  ConfigurationRunOutcome,
  ConfigurationRunSpec,
  PrepareOutcome,
  PrepareSpec,
  Sandbox,
  Step,
  StepOutcome,
} from './sandbox.ts';

/**
 * Runs commands as plain host processes: for development machines without Docker.
 * It is NOT a sandbox, and reports say so (`kind: 'process'`):
 *  - memory, cpu and pids limits are not enforced (oomKilled is always false);
 *  - the network is not blocked;
 *  - read-only mounts are symlinks into the workspace and hidden files are plain folders: a
 *    command can write to them;
 *  - TANDEM_* point at host paths.
 * What it does keep: the environment variables, working directories, step and configuration
 * timeouts (each command runs in its own process group, killed as a whole), output tails, and
 * the same outcome shapes as DockerSandbox.
 */
export class ProcessSandbox implements Sandbox {
  readonly kind = 'process' as const;
  /** Process groups of every command started and not yet cleaned up. */
  private readonly groups = new Set<number>();
  private readonly stops = new Set<() => void>();
  private disposed = false;

  async imageId(_image: string): Promise<string> {
    return 'process';
  }

  async runConfiguration(spec: ConfigurationRunSpec): Promise<ConfigurationRunOutcome> {
    const configuration = spec.configurationId;
    const run = this.begin(spec.timeoutSec, spec.signal, configuration);
    const links = await linkMounts(spec);
    const baseEnv = {
      ...process.env,
      TANDEM_WORKSPACE: spec.workspaceDir,
      TANDEM_RESULTS: spec.resultsDir,
      TANDEM_CONFIGURATION: configuration,
    };
    try {
      let stopped = false;
      const runAll = async (steps: Step[], stopOnFailure: boolean): Promise<StepOutcome[]> => {
        const out: StepOutcome[] = [];
        for (const step of steps) {
          if (stopped || run.reason) {
            out.push(notRun(step.name));
            continue;
          }
          const tail = new OutputTail(spec.outputCapBytes);
          const env = { ...baseEnv, TANDEM_HIDDEN: step.hiddenDir ?? spec.hiddenRoot };
          const r = await this.command(run, step.run, spec.workspaceDir, env, step.timeoutSec * 1000, tail);
          out.push({ name: step.name, ...r, oomKilled: false, notRun: false, outputTail: tail.toString() });
          if (stopOnFailure && r.exitCode !== 0) stopped = true;
        }
        return out;
      };
      const setup = await runAll(spec.setup, true);
      const tests = await runAll(spec.tests, false);
      if (run.reason === 'abort') throw aborted(configuration);
      return { setup, tests, timedOut: run.reason === 'timeout' };
    } finally {
      run.end();
      await Promise.all(links.map((l) => rm(l, { force: true })));
    }
  }

  async prepare(spec: PrepareSpec): Promise<PrepareOutcome> {
    const run = this.begin(spec.timeoutSec, spec.signal);
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      TANDEM_WORKSPACE: path.dirname(path.resolve(spec.repoDir)),
    };
    if (spec.caBundle) {
      const ca = path.resolve(spec.caBundle);
      Object.assign(env, {
        NODE_EXTRA_CA_CERTS: ca,
        SSL_CERT_FILE: ca,
        GIT_SSL_CAINFO: ca,
        npm_config_cafile: ca,
      });
    }
    const tail = new OutputTail(spec.outputCapBytes);
    const started = Date.now();
    try {
      let exitCode: number | null = 0;
      for (const command of spec.commands) {
        const r = await this.command(run, command, spec.repoDir, env, Number.POSITIVE_INFINITY, tail);
        exitCode = r.exitCode;
        if (exitCode !== 0) break;
      }
      if (run.reason === 'abort') throw aborted();
      const timedOut = run.reason === 'timeout';
      return {
        exitCode: timedOut ? null : exitCode,
        timedOut,
        oomKilled: false,
        durationMs: Date.now() - started,
        outputTail: tail.toString(),
      };
    } finally {
      run.end();
    }
  }

  async dispose(): Promise<void> {
    this.disposed = true;
    for (const stop of this.stops) stop();
    for (const pgid of this.groups) killGroup(pgid);
    this.groups.clear();
  }

  /** Deadline and abort handling for one configuration or prepare; `end` kills its leftovers. */
  private begin(timeoutSec: number, signal: AbortSignal | undefined, configuration?: string) {
    if (this.disposed || signal?.aborted) throw aborted(configuration);
    const groups = new Set<number>();
    const run = {
      reason: null as 'timeout' | 'abort' | null,
      groups,
      stop: (reason: 'timeout' | 'abort') => {
        if (run.reason) return;
        run.reason = reason;
        for (const pgid of groups) killGroup(pgid);
      },
      end: () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        this.stops.delete(onAbort);
        // Like removing a container: background processes a step left behind go too.
        for (const pgid of groups) {
          killGroup(pgid);
          this.groups.delete(pgid);
        }
      },
    };
    const onAbort = () => run.stop('abort');
    const timer = setTimeout(() => run.stop('timeout'), timeoutSec * 1000);
    signal?.addEventListener('abort', onAbort, { once: true });
    this.stops.add(onAbort);
    return run;
  }

  private command(
    run: ReturnType<ProcessSandbox['begin']>,
    command: string,
    cwd: string,
    env: NodeJS.ProcessEnv,
    timeoutMs: number,
    tail: OutputTail,
  ): Promise<{ exitCode: number | null; timedOut: boolean; durationMs: number }> {
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
        if (run.reason || stepTimedOut) {
          resolve({ exitCode: null, timedOut: stepTimedOut || run.reason === 'timeout', durationMs });
          return;
        }
        const { code, signal } = exit;
        resolve({
          exitCode: code ?? (signal ? 128 + (constants.signals[signal] ?? 0) : null),
          timedOut: false,
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

function aborted(configuration?: string): InfraError {
  return new InfraError('aborted', 'the run was aborted', configuration ? { configuration } : {});
}

function notRun(name: string): StepOutcome {
  return {
    name,
    exitCode: null,
    durationMs: 0,
    timedOut: false,
    oomKilled: false,
    notRun: true,
    outputTail: '',
  };
}
