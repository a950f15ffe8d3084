import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type Docker from 'dockerode';
import { InfraError, InputError } from '../../core/errors.ts';
import { DEFAULT_PREPARE_EGRESS } from '../../core/prepare-egress.ts';
import { HiddenStage } from '../hidden/hidden-stage.ts';
import { startEgressProxy } from '../prepare/egress-proxy.ts';
import { GroupResults } from '../results/group-results.ts';
import { assertMountSources } from '../sandbox/mount-sources.ts';
import type {
  ConfigurationRunOutcome,
  ConfigurationRunSpec,
  PrepareOutcome,
  PrepareSpec,
  Sandbox,
  SandboxLimits,
  Step,
} from '../sandbox/sandbox.ts';
import { aborted, runPrepareCommands, runSteps } from '../sandbox/step-sequence.ts';
import { giveReposToStepUser } from '../sandbox/step-user.ts';
import { ensureMountpoint, isUnder } from '../wiring/mountpoints.ts';
import { removeOrphans } from './container-owner.ts';
import { createDockerClient, resolveImageId } from './docker-client.ts';
import { ContainerTracker } from './docker-container.ts';
import { ContainerExec, createStepExec } from './docker-exec.ts';
import { configurationContainer, prepareContainer, RESULTS } from './docker-layout.ts';
import { EGRESS_SOCKET_NAME, startForwarder } from './egress-forwarder.ts';
import { StepIsolation } from './step-isolation.ts';

export interface DockerSandboxOptions {
  docker?: Docker;
}

/**
 * The real sandbox: one container per configuration (or prepare), idling as PID 1 while every
 * step runs in it via `docker exec`, so steps share the workspace and a step timeout only kills
 * that step's processes. Layout: docker-layout.ts; lifecycle: docker-container.ts; steps:
 * docker-exec.ts; step order: step-sequence.ts.
 */
export class DockerSandbox implements Sandbox {
  readonly kind = 'docker' as const;
  readonly docker: Docker;
  private readonly images = new Map<string, Promise<string>>();
  private readonly containers: ContainerTracker;
  private readonly inflight = new Set<Promise<unknown>>();
  private sweep?: Promise<number>;
  private readonly disposal = new AbortController();

  constructor(options: DockerSandboxOptions = {}) {
    this.docker = options.docker ?? createDockerClient();
    this.containers = new ContainerTracker(this.docker);
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

  async checkLimits(limits: SandboxLimits): Promise<void> {
    let cpus: number;
    try {
      cpus = Number((await this.docker.info()).NCPU);
    } catch {
      return;
    }
    if (Number.isFinite(cpus) && cpus > 0 && limits.cpus > cpus) {
      throw new InputError(
        `suite field "limits.cpus": ${limits.cpus} CPUs asked, but the Docker engine has ${cpus}`,
      );
    }
  }

  runConfiguration(spec: ConfigurationRunSpec): Promise<ConfigurationRunOutcome> {
    return this.track(this.swept().then(() => this.runConfigurationNow(spec)));
  }

  prepare(spec: PrepareSpec): Promise<PrepareOutcome> {
    return this.track(this.swept().then(() => this.prepareNow(spec)));
  }

  /** Before this sandbox's first container: remove containers of owners that died (once). */
  private swept(): Promise<unknown> {
    this.sweep ??= removeOrphans(this.docker);
    return this.sweep;
  }

  /** Resolves once the containers of finished runs (removed off their critical path) are gone. */
  removalsSettled(): Promise<void> {
    return this.containers.removalsSettled();
  }

  /** Resolves when the run may start (`startGate`); rejects as aborted on abort or dispose. */
  private slotFree(spec: ConfigurationRunSpec): Promise<void> {
    if (!spec.startGate) return Promise.resolve();
    const signals = [this.disposal.signal, ...(spec.signal ? [spec.signal] : [])];
    const stop = AbortSignal.any(signals);
    if (stop.aborted) return Promise.reject(aborted(spec.configurationId));
    return new Promise<void>((resolve, reject) => {
      const onAbort = () => reject(aborted(spec.configurationId));
      stop.addEventListener('abort', onAbort, { once: true });
      spec.startGate!.then(() => {
        stop.removeEventListener('abort', onAbort);
        resolve();
      }, reject);
    });
  }

  async dispose(): Promise<void> {
    this.disposal.abort();
    await this.containers.dispose();
    // Runs still creating a container remove it themselves once they see the tracker disposed.
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
    this.containers.checkOpen(spec.signal, configuration);
    await linkMountpoints(spec);
    const own = path.dirname(spec.resultsDir);
    const stage = await HiddenStage.create(own);
    try {
      // Steps run as another uid than the stage's owner: they may read it, never write it.
      await chmod(stage.dir, 0o755);
      const results = await GroupResults.create(spec.resultsDir, path.join(own, 'results-taken'));
      // Steps run as an unprivileged user (step-user.ts): the repository folders are theirs to
      // write, the workspace root (their working directory) is not.
      await giveReposToStepUser(spec.workspaceDir);
      const isolation = await StepIsolation.create(own, spec);
      const { scratch, snapshot } = isolation.folders;
      const layout = configurationContainer(spec, { hiddenStage: stage.dir, ...isolation.folders });
      await assertMountSources(spec, layout.workspaceSources, [
        stage.dir,
        scratch,
        ...(snapshot ? [snapshot] : []),
      ]);
      // Made ready ahead, while another configuration holds the slot: created and started (PID 1
      // only idles; nothing of the PR runs before the first step), so the slot pays neither.
      const container = await this.containers.start(layout.options, spec.image, configuration);
      // Each test group writes into a folder of its own, named now, made right before its step.
      const folders = new Map(spec.tests.map((s, i) => [s, GroupResults.folderName(i)]));
      const envOf = (step: Step) => {
        const folder = folders.get(step);
        return [...isolation.env(step), ...(folder ? [`TANDEM_RESULTS=${RESULTS}/${folder}`] : [])];
      };
      const ahead = new Map(
        [...spec.setup, ...spec.tests].map((s) => [s, createStepExec(container, s.run, envOf(s))]),
      );
      await this.slotFree(spec).catch((err: unknown) => {
        this.containers.discard(container);
        throw err;
      });
      const guard = this.containers.guard(container, spec.timeoutSec, spec.signal);
      const exec = new ContainerExec(this.docker, container, guard, configuration);
      const last = spec.tests.at(-1);
      let spared = spec.setup.length === 0;
      if (spared && spec.tests.length > 1) exec.killAhead();
      try {
        return await runSteps(
          spec,
          () => guard.reason,
          async (step, tail) => {
            const run = () => exec.run(step.run, envOf(step), step.timeoutSec * 1000, tail, ahead.get(step));
            const folder = folders.get(step);
            if (!folder) {
              await isolation.before(step, exec);
              return run();
            }
            // What setup left running is spared by every leftover kill from here on.
            if (!spared) {
              await exec.spareRunning();
              spared = true;
              if (step !== last) exec.killAhead();
            }
            const refused = await isolation.before(step, exec);
            if (refused) {
              tail.push(`${refused}\n`);
              return { exitCode: 1, timedOut: false, oomKilled: false, durationMs: 0 };
            }
            // Only the running group's hidden files are in the stage; setup sees none.
            const { value, resultFile } = await results.during(folder, step.resultsPath, () =>
              stage.during(step.hiddenDir, async () => {
                const r = await run();
                // Nothing the step left may live on into the next group's hidden files (after
                // the last group the container is killed next).
                if (step !== last && !r.containerLost) {
                  await exec.killLeftovers();
                  // The next one, ahead, for the group after this one (the last needs none).
                  if (spec.tests.indexOf(step) < spec.tests.length - 2) exec.killAhead();
                }
                return r;
              }),
            );
            return { ...value, ...(resultFile ? { resultFile } : {}) };
          },
        );
      } finally {
        await this.containers.release(container, guard, configuration);
      }
    } finally {
      await stage.remove();
    }
  }

  private async prepareNow(spec: PrepareSpec): Promise<PrepareOutcome> {
    this.containers.checkOpen(spec.signal);
    // A short path: a unix socket's path is limited to about 100 bytes.
    const egressDir = await mkdtemp(path.join(tmpdir(), 'tandem-egress-'));
    const proxy = await startEgressProxy(
      path.join(egressDir, EGRESS_SOCKET_NAME),
      spec.egressAllow ?? DEFAULT_PREPARE_EGRESS,
      spec.egressLimits,
    );
    try {
      const options = prepareContainer(spec, egressDir);
      const started = Date.now();
      const container = await this.containers.start(options, spec.image);
      const guard = this.containers.guard(container, spec.timeoutSec, spec.signal);
      const exec = new ContainerExec(this.docker, container, guard, undefined, '0:0');
      try {
        await startForwarder(this.docker, container);
        // The guard enforces the overall deadline; no per-command timer.
        const out = await runPrepareCommands(
          spec,
          () => guard.reason,
          started,
          (command, tail) => exec.run(command, [], Number.POSITIVE_INFINITY, tail),
        );
        // A prepare that failed after the proxy refused it connections says which limit did it.
        const note = proxy.note();
        return note ? { ...out, outputTail: `${out.outputTail.replace(/\n?$/, '\n')}${note}\n` } : out;
      } finally {
        await this.containers.release(container, guard);
      }
    } finally {
      await proxy.close();
      await rm(egressDir, { recursive: true, force: true });
    }
  }
}

/**
 * Link targets in the workspace itself get their mount point here, on the host, so no link in
 * the tree is followed; those inside a prepared folder have one from the prepare, and those
 * inside another link are made by Docker in the (writable) producer folder it shows.
 */
async function linkMountpoints(spec: ConfigurationRunSpec): Promise<void> {
  const links = spec.links ?? [];
  const mounted = [...spec.readonlyMounts.map((m) => m.workspacePath), ...links.map((l) => l.target)];
  for (const l of links) {
    if (!mounted.some((m) => isUnder(m, l.target))) await ensureMountpoint(spec.workspaceDir, l.target);
  }
}
