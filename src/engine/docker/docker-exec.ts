/**
 * Runs commands in one running sandbox container via `docker exec`: output into a tail, a
 * per-step timeout that kills the step's processes but keeps the container (and its workspace),
 * and OOM detection from the container's memory cgroup.
 */
import type Docker from 'dockerode';
import { OutputTail } from '../results/output-tail.ts';
import type { RunGuard } from '../sandbox/run-guard.ts';
import type { CommandResult } from '../sandbox/step-sequence.ts';
import { stepUser } from '../sandbox/step-user.ts';
import { LIST_PIDS, leftoverKill, parsePids, SHELL } from '../sandbox/step-wrapper.ts';
import { createExec, engineError, execToEnd, type RunningExec, startExec } from './docker-client.ts';

/** Kills every process but PID 1 in the container's PID namespace (kill(-1) spares the caller). */
const KILL_ALL = [SHELL, '-c', 'kill -9 -1'];
/** Reads the cgroup's OOM-kill counter: cgroup v1 memory.oom_control, or v2 memory.events. */
const READ_OOM = [
  SHELL,
  '-c',
  'cat /sys/fs/cgroup/memory/memory.oom_control 2>/dev/null || cat /sys/fs/cgroup/memory.events 2>/dev/null',
];

/** Tandem's own execs run as root: steps (another uid) can neither signal nor trace them. */
const ROOT = '0:0';

/** How long a container whose step just died by a signal may take to be marked stopped. */
const SETTLE_MS = 1000;

/** A step's exec: the suite's command under the image's own shell, as the unprivileged step user. */
function stepCommand(command: string): string[] {
  // `sh` as $0, as `sh -c` gives it.
  return [SHELL, '-c', command, 'sh'];
}

/**
 * Registers a step's exec before its run slot is free, so the slot pays only for starting it
 * (`ContainerExec.run` with the same command and environment). Nothing runs until then.
 */
export function createStepExec(
  container: Docker.Container,
  command: string,
  env: string[],
): Promise<Docker.Exec> {
  const created = createExec(container, { cmd: stepCommand(command), env, user: stepUser() });
  // Awaited (or dropped) by the run; a failure there means "create it again", never unhandled.
  created.catch(() => {});
  return created;
}

export class ContainerExec {
  /** Last OOM-kill count read from the cgroup, so each step only counts its own kills. */
  private oomKills = 0;
  /** What the leftover kill spares: PID 1 and what setup left running (`spareRunning`). */
  private spared: number[] = [];
  /** The next leftover kill, registered ahead (`killAhead`). */
  private nextKill: Promise<Docker.Exec> | undefined;

  constructor(
    private readonly docker: Docker,
    private readonly container: Docker.Container,
    /** The container's guard: once it stops, results say killed (null exit code) instead of engine errors. */
    private readonly guard: RunGuard,
    private readonly configuration?: string,
    /** Who runs the commands: the step user, or root for a prepare (its container holds nothing else). */
    private readonly user: string = stepUser(),
  ) {}

  /**
   * Runs `sh -c command` as the step user; a finite `timeoutMs` kills its processes when passed
   * (the container stays). `created`: the same exec registered ahead (`createStepExec`), used
   * unless its creation failed. A container that stopped while the step ran (PID 1 gone, killed
   * for memory) is the step's doing: `containerLost` says why, never an engine error.
   */
  async run(
    command: string,
    env: string[],
    timeoutMs: number,
    tail: OutputTail,
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
    const ahead = await created?.catch(() => undefined);
    let run: RunningExec;
    const start = (opts: Parameters<typeof startExec>[2]) =>
      startExec(this.docker, this.container, opts, tail);
    const fresh = { cmd: stepCommand(command), env, user: this.user };
    try {
      // One registered ahead may be stale (the container was restarted after a failed kill).
      run = ahead ? await start({ created: ahead }).catch(() => start(fresh)) : await start(fresh);
    } catch (err) {
      if (guard.reason) return stoppedResult();
      // Stopped between steps (what the previous one left behind): still not Tandem's failure.
      const lost = await this.containerStopped();
      if (lost) return { ...stoppedResult(), oomKilled: lost.oom, containerLost: lost.reason };
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
    // Killed, or its code lost: did the container itself stop under it?
    if (exitCode === null || exitCode >= 128) {
      const lost = await this.containerStopped(true);
      if (lost)
        return { exitCode, timedOut: false, oomKilled: lost.oom, durationMs, containerLost: lost.reason };
    }
    const oomKilled = exitCode === 137 && (await this.oomKilledSince());
    return { exitCode, timedOut: false, oomKilled, durationMs };
  }

  /**
   * Takes the list of what to spare from now on (PID 1 and what setup left running), from a root
   * exec the steps cannot reach; called once setup has ended, before the first test group.
   */
  async spareRunning(): Promise<void> {
    const out = new OutputTail(64 * 1024);
    const ended = await this.machinery({ cmd: LIST_PIDS }, out, 'listing processes');
    // Nothing to spare but PID 1 is the safe side: setup services die, the group fails honestly.
    this.spared = (ended && parsePids(out.toString())) || [];
  }

  /** Registers the next leftover kill ahead, off the run's critical path (it runs in `killLeftovers`). */
  killAhead(): void {
    // One registered and not used yet (the last check found nothing to kill) still serves.
    if (this.nextKill) return;
    const created = createExec(this.container, { cmd: leftoverKill(this.spared), user: ROOT });
    created.catch(() => {});
    this.nextKill = created;
  }

  /**
   * Kills every process the step left running (all but PID 1 and what `spareRunning` listed),
   * so PR code cannot linger into a later group and read its hidden files or write its results.
   */
  async killLeftovers(): Promise<void> {
    if (this.guard.reason) return;
    // The usual case: no process of the step user is alive, and none can appear without one (PR
    // code runs only as that user, without new privileges), so there is nothing to kill. The
    // engine lists the container's processes from the host (about 15 ms here) where a kill exec
    // costs about 55. Anything not root (a step's leftover; every process under a remapped user
    // namespace) and the kill runs.
    if (this.spared.length === 0 && (await this.onlyRootAlive())) return;
    const ahead = await this.nextKill?.catch(() => undefined);
    this.nextKill = undefined;
    const cmd = leftoverKill(this.spared);
    await this.machinery(
      ahead ? { created: ahead, cmd } : { cmd },
      new OutputTail(0),
      'killing what a step left running',
    );
  }

  /**
   * Runs a script of Tandem's own as root (workspace-snapshot.ts) and says whether it exited 0,
   * with its output's tail for the reason; false too when the container is gone.
   */
  async asRoot(cmd: string[], doing: string): Promise<{ ok: boolean; output: string }> {
    const out = new OutputTail(4096);
    let exitCode: number | null = null;
    const ended = await this.machinery({ cmd }, out, doing, async (run) => {
      exitCode = await run.exitCode();
    });
    return { ok: ended && exitCode === 0, output: out.toString() };
  }

  /**
   * Whether every process in the container is root's (PID 1, its idle loop, Tandem's own execs),
   * as the host sees their uids; false when the engine cannot say.
   */
  private async onlyRootAlive(): Promise<boolean> {
    try {
      const listed = (await this.container.top({ ps_args: '-o pid,uid' })) as {
        Titles?: unknown;
        Processes?: unknown;
      };
      const uid = Array.isArray(listed.Titles) ? listed.Titles.indexOf('UID') : -1;
      const rows = listed.Processes;
      return (
        uid >= 0 &&
        Array.isArray(rows) &&
        rows.length > 0 &&
        rows.every((r) => Array.isArray(r) && String(r[uid]).trim() === '0')
      );
    } catch {
      return false;
    }
  }

  /**
   * A root exec of Tandem's own, run until its output ends (which is when it exited; its code is
   * not needed); false when the container is gone. An engine failure is Tandem's, never the step's.
   */
  private async machinery(
    opts: { cmd: string[]; created?: Docker.Exec },
    out: OutputTail,
    doing: string,
    after?: (run: RunningExec) => Promise<void>,
  ): Promise<boolean> {
    const fresh = { cmd: opts.cmd, user: ROOT };
    try {
      const run = opts.created
        ? await startExec(this.docker, this.container, { created: opts.created }, out).catch(() =>
            startExec(this.docker, this.container, fresh, out),
          )
        : await startExec(this.docker, this.container, fresh, out);
      await run.ended;
      await after?.(run);
      return true;
    } catch (err) {
      if (this.guard.reason) return false;
      if (await this.containerStopped().catch(() => undefined)) return false;
      throw engineError(this.docker, err, doing, this.configuration);
    }
  }

  /**
   * Why the container is no longer running, when it is not (and our guard did not stop it).
   * `settle`: a step just died by a signal, which a stopping container deals before the engine
   * marks it stopped; give it a moment to say so.
   */
  private async containerStopped(settle = false): Promise<{ reason: string; oom: boolean } | undefined> {
    let state: Docker.ContainerInspectInfo['State'];
    try {
      state = (await this.container.inspect()).State;
      if (state.Running && settle) {
        let timer: NodeJS.Timeout | undefined;
        const stopped = this.container.wait({ condition: 'not-running' }).then(
          () => true,
          () => false,
        );
        const late = new Promise<boolean>((r) => {
          timer = setTimeout(() => r(false), SETTLE_MS);
        });
        if (await Promise.race([stopped, late])) state = (await this.container.inspect()).State;
        clearTimeout(timer);
      }
    } catch (err) {
      throw engineError(this.docker, err, 'inspecting a container', this.configuration);
    }
    if (state.Running || this.guard.reason) return undefined;
    const how = state.OOMKilled
      ? 'its processes were killed for exceeding the memory limit'
      : `its first process (PID 1) ended with exit code ${state.ExitCode}`;
    return { reason: `the container stopped while this step ran: ${how}`, oom: state.OOMKilled };
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
