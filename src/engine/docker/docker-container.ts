/**
 * Container lifecycle for DockerSandbox: create and start, guard (deadline and abort), remove,
 * and the bookkeeping that lets `dispose` kill and remove whatever is still running.
 */
import type Docker from 'dockerode';
import { RunGuard } from '../sandbox/run-guard.ts';
import { aborted } from '../sandbox/step-sequence.ts';
import { ownerLabels } from './container-owner.ts';
import { engineError, missingImageError, statusCode } from './docker-client.ts';

export class ContainerTracker {
  private readonly live = new Map<string, Docker.Container>();
  private readonly guards = new Set<RunGuard>();
  private readonly removals = new Set<Promise<void>>();
  private disposed = false;

  constructor(private readonly docker: Docker) {}

  /** Throws InfraError('aborted') once disposed or when the run's signal has fired. */
  checkOpen(signal: AbortSignal | undefined, configuration?: string): void {
    if (this.disposed || signal?.aborted) throw aborted(configuration);
  }

  async start(
    options: Docker.ContainerCreateOptions,
    image: string,
    configuration?: string,
  ): Promise<Docker.Container> {
    return this.startCreated(await this.create(options, image, configuration), configuration);
  }

  /** Creates the container without starting it; `start` starts it right after. */
  private async create(
    options: Docker.ContainerCreateOptions,
    image: string,
    configuration?: string,
  ): Promise<Docker.Container> {
    let container: Docker.Container;
    try {
      // Owner labels let a later run remove this container if we die without cleaning up.
      container = await this.docker.createContainer({
        ...options,
        Labels: { ...options.Labels, ...ownerLabels() },
      });
    } catch (err) {
      // A 404 names no cause we can rely on; the image's own 404 says it is the missing piece.
      if (statusCode(err) === 404 && (await this.imageMissing(image))) throw missingImageError(image);
      throw engineError(this.docker, err, 'creating a container', configuration);
    }
    this.live.set(container.id, container);
    return container;
  }

  private async imageMissing(image: string): Promise<boolean> {
    try {
      await this.docker.getImage(image).inspect();
      return false;
    } catch (err) {
      return statusCode(err) === 404;
    }
  }

  /** Starts a created container; on failure it is removed. */
  private async startCreated(container: Docker.Container, configuration?: string): Promise<Docker.Container> {
    try {
      if (this.disposed) throw aborted(configuration);
      await container.start();
      return container;
    } catch (err) {
      await this.remove(container, configuration).catch(() => {});
      throw engineError(this.docker, err, 'starting a container', configuration);
    }
  }

  /** The container's deadline and abort wiring: either kills the container (once). */
  guard(container: Docker.Container, timeoutSec: number, signal?: AbortSignal): RunGuard {
    const guard = new RunGuard(() => container.kill(), timeoutSec * 1000, signal);
    this.guards.add(guard);
    if (this.disposed) guard.stop('abort');
    return guard;
  }

  /**
   * Ends a run: its guard stops ticking and its container is killed (nothing it started writes
   * on once this returns); the removal itself, slower, happens off the run's critical path.
   */
  async release(container: Docker.Container, guard: RunGuard, configuration?: string): Promise<void> {
    guard.close();
    this.guards.delete(guard);
    try {
      await container.kill();
      await container.wait();
    } catch (err) {
      // 404: gone; 409: not running (it exited, or a removal is already under way).
      const status = statusCode(err);
      if (status !== 404 && status !== 409)
        throw engineError(this.docker, err, 'stopping a container', configuration);
    }
    this.removing(this.remove(container, configuration));
  }

  /** Resolves once every removal started so far has ended. */
  async removalsSettled(): Promise<void> {
    await Promise.all([...this.removals]);
  }

  /** Called with a removal left running: dispose awaits it; an orphan is swept by a later run. */
  discard(container: Docker.Container): void {
    this.removing(this.remove(container));
  }

  private removing(removal: Promise<void>): void {
    const settled = removal.catch(() => {});
    this.removals.add(settled);
    void settled.then(() => this.removals.delete(settled));
  }

  /** Stops every guarded run (they end as aborted, not as engine failures) and removes every container. */
  async dispose(): Promise<void> {
    this.disposed = true;
    for (const guard of this.guards) guard.stop('abort');
    // Runs still creating a container remove it themselves once they see `disposed`.
    await Promise.all([...this.live.values()].map((c) => this.remove(c).catch(() => {})));
    await Promise.all([...this.removals]);
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
}
