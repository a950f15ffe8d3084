/**
 * What a part of the App that evaluates owns besides its evaluations: the queue, the background
 * tasks around it (check runs being created or completed, webhook work), and the two ways to wait
 * for them: `idle` (nothing pending, tests settle a scenario so) and `close` (stop and resolve once
 * stopped, so the store may close after). The PR service and the merge-queue gate both hold one.
 */
import { EvaluationQueue, type QueueOptions } from './evaluation-queue.ts';

export class TaskLifecycle<T> {
  readonly queue: EvaluationQueue<T>;
  private readonly tasks = new Set<Promise<void>>();
  private stopping = false;

  /** `onTaskError`: a background task failed (logged; nothing waits on it to reject). */
  constructor(
    queue: QueueOptions<T>,
    private readonly onTaskError: (e: unknown) => void,
  ) {
    this.queue = new EvaluationQueue<T>(queue);
  }

  /** True once `close` began: an aborted run then stays for the restart to resume. */
  get closing(): boolean {
    return this.stopping;
  }

  /** Tracks `task` until it settles; the returned promise never rejects. */
  track(task: Promise<unknown>): Promise<void> {
    const p: Promise<void> = task
      .then(
        () => {},
        (e: unknown) => this.onTaskError(e),
      )
      .finally(() => this.tasks.delete(p));
    this.tasks.add(p);
    return p;
  }

  /**
   * Resolves when no queued run or background task is pending. With `flush`, debounce windows
   * end at once, including those that work still pending opens.
   */
  async idle(opts: { flush?: boolean } = {}): Promise<void> {
    while (this.tasks.size > 0 || this.queue.size > 0) {
      await Promise.allSettled([...this.tasks]);
      if (opts.flush) this.queue.flush();
      await this.queue.idle();
    }
  }

  /**
   * Stops the queue (debounce timers; running items are aborted and awaited), then waits for the
   * background tasks, which may still be finishing what a run or a webhook began.
   */
  async close(): Promise<void> {
    this.stopping = true;
    await this.queue.close();
    while (this.tasks.size > 0) await Promise.allSettled([...this.tasks]);
  }
}
