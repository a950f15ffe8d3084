/**
 * Runs commands in one running sandbox container via `docker exec`: output into a tail, a
 * per-step timeout that kills the step's processes but keeps the container (and its workspace),
 * and OOM detection from the container's memory cgroup.
 */
import type Docker from 'dockerode';
import { OutputTail } from '../results/output-tail.ts';
import type { RunGuard } from '../sandbox/run-guard.ts';
import type { CommandResult } from '../sandbox/step-sequence.ts';
import { WrapperStdout, wrappedStep, wrapperCompleted } from '../sandbox/step-wrapper.ts';
import { createExec, engineError, execToEnd, type RunningExec, startExec } from './docker-client.ts';

/** Kills every process but PID 1 in the container's PID namespace (kill(-1) spares the caller). */
const KILL_ALL = ['sh', '-c', 'kill -9 -1'];
/** Reads the cgroup's OOM-kill counter: cgroup v1 memory.oom_control, or v2 memory.events. */
const READ_OOM = [
  'sh',
  '-c',
  'cat /sys/fs/cgroup/memory/memory.oom_control 2>/dev/null || cat /sys/fs/cgroup/memory.events 2>/dev/null',
];

function stepCommand(command: string, isolate: boolean): string[] {
  return isolate ? wrappedStep(command) : ['sh', '-c', command];
}

/**
 * Registers a step's exec before its run slot is free, so the slot pays only for starting it
 * (`ContainerExec.run` with the same command and `isolate`, and no extra environment, as
 * configuration steps run). Nothing runs until then.
 */
export function createStepExec(
  container: Docker.Container,
  command: string,
  isolate: boolean,
): Promise<Docker.Exec> {
  const created = createExec(container, { cmd: stepCommand(command, isolate), env: [] });
  // Awaited (or dropped) by the run; a failure there means "create it again", never unhandled.
  created.catch(() => {});
  return created;
}

export class ContainerExec {
  /** Last OOM-kill count read from the cgroup, so each step only counts its own kills. */
  private oomKills = 0;

  constructor(
    private readonly docker: Docker,
    private readonly container: Docker.Container,
    /** The container's guard: once it stops, results say killed (null exit code) instead of engine errors. */
    private readonly guard: RunGuard,
    private readonly configuration?: string,
  ) {}

  /**
   * Runs `sh -c command`; a finite `timeoutMs` kills its processes when passed (the container
   * stays). `isolate`: the command runs in the step wrapper (step-wrapper.ts), and nothing it
   * leaves running survives it; what was running before it (setup's services) stays. `created`:
   * the same exec registered ahead (`createStepExec`), used unless its creation failed.
   */
  async run(
    command: string,
    env: string[],
    timeoutMs: number,
    tail: OutputTail,
    isolate = false,
    created?: Promise<Docker.Exec>,
  ): Promise<CommandResult> {
    const { guard } = this;
    const started = Date.now();
    const stoppedResult = (): CommandResult => ({
      exitCode: null,
      timedOut: guard.reason === 'timeout',
      oomKilled: false,
      durationMs: Date.now() - started,
    });
    const wrapper = isolate ? new WrapperStdout(tail) : undefined;
    const ahead = await created?.catch(() => undefined);
    let run: RunningExec;
    const start = (opts: Parameters<typeof startExec>[2]) =>
      startExec(this.docker, this.container, opts, tail, wrapper?.writable());
    const fresh = { cmd: stepCommand(command, isolate), env };
    try {
      // One registered ahead may be stale (the container was restarted after a failed kill).
      run = ahead ? await start({ created: ahead }).catch(() => start(fresh)) : await start(fresh);
    } catch (err) {
      if (guard.reason) return stoppedResult();
      throw engineError(this.docker, err, 'starting a step', this.configuration);
    }
    let killing: Promise<void> | undefined;
    const timer = Number.isFinite(timeoutMs)
      ? setTimeout(() => {
          killing = this.killProcesses(run);
        }, timeoutMs)
      : undefined;
    const off = guard.onStop(() => run.detach());
    await run.ended;
    clearTimeout(timer);
    off();
    const durationMs = Date.now() - started;
    if (killing) {
      // Let the kill finish first: a late `kill -9 -1` must not hit the next step. It killed
      // every process but PID 1, so nothing the step started is left.
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
      throw engineError(this.docker, err, 'reading a step exit code', this.configuration);
    }
    // The wrapper may have been killed before its kill pass (by the step itself): do it from here.
    if (wrapper && !wrapperCompleted(exitCode)) await this.killLeftovers(wrapper.keep);
    const oomKilled = exitCode === 137 && (await this.oomKilledSince());
    return { exitCode, timedOut: false, oomKilled, durationMs };
  }

  /**
   * Kills every process not in `keep` (the pids alive before a test step; undefined: all but
   * PID 1): what the step left running, so PR code cannot linger into a later group and read its
   * hidden files. Processes setup started (services) were alive before and stay.
   */
  private async killLeftovers(keep: string | undefined): Promise<void> {
    if (this.guard.reason) return;
    const script =
      keep === undefined
        ? KILL_ALL[2]!
        : `for d in /proc/[0-9]*; do p=\${d#/proc/}; case " 1 $$ ${keep} " in *" $p "*) ;; *) kill -9 "$p" 2>/dev/null;; esac; done; true`;
    await execToEnd(this.docker, this.container, ['sh', '-c', script], new OutputTail(0)).catch(() => null);
  }

  /** Kills a timed-out step's whole process tree; if the kill itself cannot run, restarts the container. */
  private async killProcesses(run: RunningExec): Promise<void> {
    const { container, guard } = this;
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
  private async oomKilledSince(): Promise<boolean> {
    const out = new OutputTail(4096);
    try {
      await execToEnd(this.docker, this.container, READ_OOM, out);
      const m = /oom_kill (\d+)/.exec(out.toString());
      if (m) {
        const count = Number(m[1]);
        const grew = count > this.oomKills;
        this.oomKills = count;
        return grew;
      }
      const info = await this.container.inspect();
      return info.State.OOMKilled;
    } catch {
      return false;
    }
  }
}
