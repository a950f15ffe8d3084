/**
 * The webhooks a process is answering, and the moment it starts shutting down: from then on
 * `/readyz` says 503 and new deliveries are refused (GitHub's redelivery or another replica takes
 * them), while the ones being answered finish before the runtime closes under them.
 */
import type { ServerResponse } from 'node:http';

export class Drain {
  private stopping = false;
  private readonly answering = new Set<ServerResponse>();
  private waiters: Array<() => void> = [];

  get draining(): boolean {
    return this.stopping;
  }

  /** Counts `res` until its answer is sent or its connection is gone. */
  track(res: ServerResponse): void {
    this.answering.add(res);
    res.once('close', () => {
      this.answering.delete(res);
      if (this.answering.size === 0) this.release();
    });
  }

  /** Starts the drain; resolves once no tracked webhook is being answered. */
  begin(): Promise<void> {
    this.stopping = true;
    if (this.answering.size === 0) return Promise.resolve();
    return new Promise((ok) => this.waiters.push(ok));
  }

  private release(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const w of waiters) w();
  }
}
