import path from 'node:path';
import type Docker from 'dockerode';
import { InfraError } from '../core/errors.ts';
import {
  createDockerClient,
  engineError,
  execToEnd,
  missingImageError,
  type RunningExec,
  resolveImageId,
  startExec,
  statusCode,
} from './docker-client.ts';
import { OutputTail } from './output-tail.ts';
import type {
  ConfigurationRunOutcome,
  ConfigurationRunSpec,
  PrepareOutcome,
  PrepareSpec,
  Sandbox,
  SandboxLimits,
  Step,
  StepOutcome,
} from './sandbox.ts';

const WORKSPACE = '/tandem/workspace';
const HIDDEN = '/tandem/hidden';
const RESULTS = '/tandem/results';
const CA_PATH = '/etc/ssl/certs/ca-certificates.crt';
/** PID 1 of every container: idles and survives `kill -9 -1` (the loop restarts its sleep). */
const IDLE = 'trap "exit 0" TERM; while :; do sleep 3600 & wait; done';
/** Kills every process but PID 1 in the container's PID namespace (kill(-1) spares the caller). */
const KILL_ALL = ['sh', '-c', 'kill -9 -1'];
/** Reads the cgroup's OOM-kill counter: cgroup v1 memory.oom_control, or v2 memory.events. */
const READ_OOM = [
  'sh',
  '-c',
  'cat /sys/fs/cgroup/memory/memory.oom_control 2>/dev/null || cat /sys/fs/cgroup/memory.events 2>/dev/null',
];

type StopReason = 'timeout' | 'abort';

/** One container's deadline and abort wiring: on either, the container is killed once. */
class RunGuard {
  reason: StopReason | null = null;
  private readonly listeners = new Set<() => void>();
  private readonly timer: NodeJS.Timeout;
  private readonly onAbort = () => this.stop('abort');

  constructor(
    private readonly kill: () => Promise<unknown>,
    timeoutMs: number,
    private readonly signal?: AbortSignal,
  ) {
    this.timer = setTimeout(() => this.stop('timeout'), timeoutMs);
    signal?.addEventListener('abort', this.onAbort, { once: true });
    // The signal may have fired while the container was being created.
    if (signal?.aborted) this.stop('abort');
  }

  stop(reason: StopReason): void {
    if (this.reason) return;
    this.reason = reason;
    for (const l of this.listeners) l();
    this.kill().catch(() => {});
  }

  onStop(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  close(): void {
    clearTimeout(this.timer);
    this.signal?.removeEventListener('abort', this.onAbort);
  }
}

interface ExecResult {
  exitCode: number | null;
  timedOut: boolean;
  oomKilled: boolean;
  durationMs: number;
}

interface ContainerState {
  container: Docker.Container;
  guard: RunGuard;
  /** Last OOM-kill count read from the cgroup, so each step only counts its own kills. */
  oomKills: number;
  configuration?: string;
}

export interface DockerSandboxOptions {
  docker?: Docker;
}

export class DockerSandbox implements Sandbox {
  readonly kind = 'docker' as const;
  readonly docker: Docker;
  private readonly images = new Map<string, Promise<string>>();
  private readonly live = new Map<string, Docker.Container>();
  private readonly guards = new Set<RunGuard>();
  private readonly inflight = new Set<Promise<unknown>>();
  private disposed = false;

  constructor(options: DockerSandboxOptions = {}) {
    this.docker = options.docker ?? createDockerClient();
  }

  imageId(image: string): Promise<string> {
    let id = this.images.get(image);
    if (!id) {
      id = resolveImageId(this.docker, image);
      this.images.set(image, id);
      // Engine trouble may pass; a missing image stays missing for this instance (pull once).
      id.catch((err: unknown) => {
        if (!(err instanceof InfraError && err.kind === 'image-missing')) this.images.delete(image);
      });
    }
    return id;
  }

  runConfiguration(spec: ConfigurationRunSpec): Promise<ConfigurationRunOutcome> {
    return this.track(this.runConfigurationNow(spec));
  }

  prepare(spec: PrepareSpec): Promise<PrepareOutcome> {
    return this.track(this.prepareNow(spec));
  }

  async dispose(): Promise<void> {
    this.disposed = true;
    // Running steps then end as aborted rather than as engine failures.
    for (const guard of this.guards) guard.stop('abort');
    await Promise.all([...this.live.values()].map((c) => this.remove(c).catch(() => {})));
    // Runs still creating a container remove it themselves once they see `disposed`.
    await Promise.allSettled([...this.inflight]);
  }

  private track<T>(run: Promise<T>): Promise<T> {
    this.inflight.add(run);
    run.then(
      () => this.inflight.delete(run),
      () => this.inflight.delete(run),
    );
    return run;
  }

  private async runConfigurationNow(spec: ConfigurationRunSpec): Promise<ConfigurationRunOutcome> {
    const configuration = spec.configurationId;
    this.checkOpen(spec.signal, configuration);
    const hidden = hiddenLayout(spec);
    const mounts: Docker.MountSettings[] = [
      bind(spec.workspaceDir, WORKSPACE, false),
      ...spec.readonlyMounts.map((m) =>
        bind(m.hostPath, `${WORKSPACE}/${insidePath(m.workspacePath)}`, true),
      ),
      bind(spec.hiddenRoot, HIDDEN, true),
      ...hidden.extraMounts,
      bind(spec.resultsDir, RESULTS, false),
    ];
    const container = await this.startContainer(
      {
        Image: spec.image,
        Cmd: ['sh', '-c', IDLE],
        Labels: { tandem: '1', 'tandem.configuration': configuration },
        WorkingDir: WORKSPACE,
        Env: [
          'HOME=/tmp',
          `TANDEM_WORKSPACE=${WORKSPACE}`,
          `TANDEM_HIDDEN=${HIDDEN}`,
          `TANDEM_RESULTS=${RESULTS}`,
          `TANDEM_CONFIGURATION=${configuration}`,
        ],
        // Both: NetworkDisabled skips network setup entirely (about half the start cost here).
        NetworkDisabled: true,
        HostConfig: { NetworkMode: 'none', Mounts: mounts, ...limitsConfig(spec.limits) },
      },
      spec.image,
      configuration,
    );
    const guard = this.guard(container, spec.timeoutSec, spec.signal);
    const state: ContainerState = { container, guard, oomKills: 0, configuration };
    try {
      let stopped = false;
      const runAll = async (steps: Step[], stopOnFailure: boolean): Promise<StepOutcome[]> => {
        const out: StepOutcome[] = [];
        for (const step of steps) {
          if (stopped || guard.reason) {
            out.push(notRun(step.name));
            continue;
          }
          const tail = new OutputTail(spec.outputCapBytes);
          const env = [`TANDEM_HIDDEN=${hidden.forStep(step)}`];
          const r = await this.exec(state, ['sh', '-c', step.run], env, step.timeoutSec * 1000, tail);
          out.push({ name: step.name, ...r, notRun: false, outputTail: tail.toString() });
          if (stopOnFailure && r.exitCode !== 0) stopped = true;
        }
        return out;
      };
      const setup = await runAll(spec.setup, true);
      const tests = await runAll(spec.tests, false);
      if (guard.reason === 'abort') throw aborted(configuration);
      return { setup, tests, timedOut: guard.reason === 'timeout' };
    } finally {
      guard.close();
      this.guards.delete(guard);
      await this.remove(container, configuration);
    }
  }

  private async prepareNow(spec: PrepareSpec): Promise<PrepareOutcome> {
    this.checkOpen(spec.signal);
    const repoPath = `${WORKSPACE}/${insidePath(spec.repoName)}`;
    const mounts = [bind(spec.repoDir, repoPath, false)];
    const env = ['HOME=/tmp', `TANDEM_WORKSPACE=${WORKSPACE}`];
    if (spec.caBundle) {
      mounts.push(bind(spec.caBundle, CA_PATH, true));
      for (const name of ['NODE_EXTRA_CA_CERTS', 'SSL_CERT_FILE', 'GIT_SSL_CAINFO', 'npm_config_cafile']) {
        env.push(`${name}=${CA_PATH}`);
      }
    }
    const started = Date.now();
    const container = await this.startContainer(
      {
        Image: spec.image,
        Cmd: ['sh', '-c', IDLE],
        Labels: { tandem: '1', 'tandem.prepare': spec.repoName },
        WorkingDir: repoPath,
        Env: env,
        HostConfig: { NetworkMode: spec.network, Mounts: mounts, ...limitsConfig(spec.limits) },
      },
      spec.image,
    );
    const guard = this.guard(container, spec.timeoutSec, spec.signal);
    const state: ContainerState = { container, guard, oomKills: 0 };
    const tail = new OutputTail(spec.outputCapBytes);
    try {
      let exitCode: number | null = 0;
      let oomKilled = false;
      for (const command of spec.commands) {
        // The guard enforces the overall deadline; no per-command timer.
        const r = await this.exec(state, ['sh', '-c', command], [], Number.POSITIVE_INFINITY, tail);
        exitCode = r.exitCode;
        oomKilled ||= r.oomKilled;
        if (exitCode !== 0) break;
      }
      if (guard.reason === 'abort') throw aborted();
      const timedOut = guard.reason === 'timeout';
      return {
        exitCode: timedOut ? null : exitCode,
        timedOut,
        oomKilled,
        durationMs: Date.now() - started,
        outputTail: tail.toString(),
      };
    } finally {
      guard.close();
      this.guards.delete(guard);
      await this.remove(container);
    }
  }

  private guard(container: Docker.Container, timeoutSec: number, signal?: AbortSignal): RunGuard {
    const guard = new RunGuard(() => container.kill(), timeoutSec * 1000, signal);
    this.guards.add(guard);
    if (this.disposed) guard.stop('abort');
    return guard;
  }

  /** Runs one command via `docker exec`; a step timeout kills its processes but keeps the container. */
  private async exec(
    state: ContainerState,
    cmd: string[],
    env: string[],
    timeoutMs: number,
    tail: OutputTail,
  ): Promise<ExecResult> {
    const { container, guard } = state;
    const started = Date.now();
    const stoppedResult = (): ExecResult => ({
      exitCode: null,
      timedOut: guard.reason === 'timeout',
      oomKilled: false,
      durationMs: Date.now() - started,
    });
    let run: RunningExec;
    try {
      run = await startExec(this.docker, container, { cmd, env }, tail);
    } catch (err) {
      if (guard.reason) return stoppedResult();
      throw engineError(this.docker, err, 'starting a step', state.configuration);
    }
    let killing: Promise<void> | undefined;
    const timer = Number.isFinite(timeoutMs)
      ? setTimeout(() => {
          killing = this.killProcesses(state, run);
        }, timeoutMs)
      : undefined;
    const off = guard.onStop(() => run.detach());
    await run.ended;
    clearTimeout(timer);
    off();
    const durationMs = Date.now() - started;
    if (killing) {
      // Let the kill finish first: a late `kill -9 -1` must not hit the next step.
      await killing;
      if (guard.reason) return stoppedResult();
      return { exitCode: null, timedOut: true, oomKilled: false, durationMs };
    }
    if (guard.reason) return stoppedResult();
    let exitCode: number | null;
    try {
      exitCode = await run.exitCode();
    } catch (err) {
      if (guard.reason) return stoppedResult();
      throw engineError(this.docker, err, 'reading a step exit code', state.configuration);
    }
    const oomKilled = exitCode === 137 && (await this.oomKilledSince(state));
    return { exitCode, timedOut: false, oomKilled, durationMs };
  }

  /** Kills a timed-out step's whole process tree; if the kill itself cannot run, restarts the container. */
  private async killProcesses({ container, guard }: ContainerState, run: RunningExec): Promise<void> {
    const ended = run.ended.then(() => true);
    const within = (ms: number) =>
      Promise.race([ended, new Promise<boolean>((r) => setTimeout(() => r(false), ms).unref())]);
    try {
      await execToEnd(this.docker, container, KILL_ALL, new OutputTail(0));
      if (await within(5000)) return;
    } catch {
      // e.g. the pids limit is exhausted: fall through to a restart.
    }
    // The container is going away already (configuration timeout, abort): never revive it.
    if (guard.reason) return;
    try {
      // Bind mounts keep the workspace; only processes (and /tmp writes) are lost.
      await container.restart({ t: 0 });
    } catch {
      // Gone meanwhile; the stream has ended or is detached below.
    }
    if (!(await within(5000))) run.detach();
  }

  /** After exit 137: did the memory cgroup OOM-kill something since we last looked? */
  private async oomKilledSince(state: ContainerState): Promise<boolean> {
    const out = new OutputTail(4096);
    try {
      await execToEnd(this.docker, state.container, READ_OOM, out);
      const m = /oom_kill (\d+)/.exec(out.toString());
      if (m) {
        const count = Number(m[1]);
        const grew = count > state.oomKills;
        state.oomKills = count;
        return grew;
      }
      const info = await state.container.inspect();
      return info.State.OOMKilled;
    } catch {
      return false;
    }
  }

  private async startContainer(
    options: Docker.ContainerCreateOptions,
    image: string,
    configuration?: string,
  ): Promise<Docker.Container> {
    let container: Docker.Container;
    try {
      container = await this.docker.createContainer(options);
    } catch (err) {
      if (statusCode(err) === 404 && /no such image/i.test(String((err as Error).message))) {
        throw missingImageError(image);
      }
      throw engineError(this.docker, err, 'creating a container', configuration);
    }
    this.live.set(container.id, container);
    try {
      if (this.disposed) throw aborted(configuration);
      await container.start();
      return container;
    } catch (err) {
      await this.remove(container, configuration).catch(() => {});
      throw engineError(this.docker, err, 'starting a container', configuration);
    }
  }

  private async remove(container: Docker.Container, configuration?: string): Promise<void> {
    try {
      await container.remove({ force: true, v: true });
    } catch (err) {
      // 404: already gone; 409: removal already in progress (dispose racing a finished run).
      const status = statusCode(err);
      if (status !== 404 && status !== 409) {
        throw engineError(this.docker, err, 'removing a container', configuration);
      }
    } finally {
      this.live.delete(container.id);
    }
  }

  private checkOpen(signal: AbortSignal | undefined, configuration?: string): void {
    if (this.disposed || signal?.aborted) throw aborted(configuration);
  }
}

function aborted(configuration?: string): InfraError {
  return new InfraError('aborted', 'the run was aborted', configuration ? { configuration } : {});
}

function bind(source: string, target: string, readOnly: boolean): Docker.MountSettings {
  return { Type: 'bind', Source: path.resolve(source), Target: target, ReadOnly: readOnly };
}

/** A relative path inside the container, refusing anything that would climb out. */
function insidePath(rel: string): string {
  const norm = path.posix.normalize(rel.split(path.sep).join('/')).replace(/^\/+|\/+$/g, '');
  if (norm === '' || norm === '.' || norm.startsWith('..'))
    throw new Error(`path "${rel}" escapes the workspace`);
  return norm;
}

function limitsConfig(limits: SandboxLimits): Docker.HostConfig {
  const memory = limits.memoryBytes > 0 ? { Memory: limits.memoryBytes, MemorySwap: limits.memoryBytes } : {};
  return {
    ...memory,
    ...(limits.cpus > 0 ? { NanoCpus: Math.round(limits.cpus * 1e9) } : {}),
    ...(limits.pids > 0 ? { PidsLimit: limits.pids } : {}),
  };
}

/** Where each step's hidden folder appears: under /tandem/hidden when inside hiddenRoot, else its own mount. */
function hiddenLayout(spec: ConfigurationRunSpec) {
  const root = path.resolve(spec.hiddenRoot);
  const extra = new Map<string, string>();
  const extraMounts: Docker.MountSettings[] = [];
  const forStep = (step: Step): string => {
    if (!step.hiddenDir) return HIDDEN;
    const dir = path.resolve(step.hiddenDir);
    const rel = path.relative(root, dir);
    if (rel === '') return HIDDEN;
    if (!rel.startsWith('..') && !path.isAbsolute(rel)) return `${HIDDEN}/${rel.split(path.sep).join('/')}`;
    return extra.get(dir) ?? '';
  };
  for (const step of [...spec.setup, ...spec.tests]) {
    if (!step.hiddenDir || forStep(step) !== '') continue;
    const target = `/tandem/hidden-extra/${extra.size}`;
    extra.set(path.resolve(step.hiddenDir), target);
    extraMounts.push(bind(step.hiddenDir, target, true));
  }
  return { forStep, extraMounts };
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
