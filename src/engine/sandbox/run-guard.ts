export type StopReason = 'timeout' | 'abort';

/**
 * One run's deadline and abort wiring (a configuration or a prepare, in either sandbox): on the
 * first of timeout, abort signal or `stop`, it records why and kills the run once.
 */
export class RunGuard {
  reason: StopReason | null = null;
  private readonly listeners = new Set<() => void>();
  private readonly timer: NodeJS.Timeout;
  private readonly onAbort = () => this.stop('abort');

  constructor(
    /** Called once, synchronously, on the first stop; a rejection is ignored (the run is going anyway). */
    private readonly kill: () => unknown,
    timeoutMs: number,
    private readonly signal?: AbortSignal,
  ) {
    this.timer = setTimeout(() => this.stop('timeout'), timeoutMs);
    signal?.addEventListener('abort', this.onAbort, { once: true });
    // The signal may have fired while the run was being set up (e.g. a container created).
    if (signal?.aborted) this.stop('abort');
  }

  stop(reason: StopReason): void {
    if (this.reason) return;
    this.reason = reason;
    for (const l of this.listeners) l();
    Promise.resolve(this.kill()).catch(() => {});
  }

  /** Runs `listener` before the kill when the guard stops; returns the unsubscribe. */
  onStop(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  close(): void {
    clearTimeout(this.timer);
    this.signal?.removeEventListener('abort', this.onAbort);
  }
}
