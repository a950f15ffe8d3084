/**
 * The evaluation queue: requests for the same key (a linked set) within the debounce window
 * become one run; a newer request aborts the run it makes stale; at most `concurrency` runs at
 * once. Generic over the item so the App's persistence stays out of it.
 */
export interface QueueOptions<T> {
  concurrency: number;
  debounceMs: number;
  /**
   * `releaseSlot`: the run's remaining work (comments waiting for GitHub's content budget) no
   * longer needs one of the `concurrency` slots; it still counts as running (aborts, `idle`, `close`).
   */
  run: (item: T, signal: AbortSignal, releaseSlot: () => void) => Promise<void>;
  /** Folds a newer request into a waiting one (e.g. `matrix full` wins). Default: the newer. */
  merge?: (waiting: T, newer: T) => T;
  onError?: (e: unknown, item: T) => void;
  /** A waiting item folded into another key's request (its set grew into that one). */
  onDrop?: (item: T) => void;
  /**
   * Asked when an item's debounce window ends: a later time (epoch ms) extends the window to it.
   * Replicas: requests folded into the item's row at another replica debounce it too.
   */
  waitUntil?: (item: T) => Promise<number | undefined>;
}

interface Running<T> {
  key: string;
  item: T;
  controller: AbortController;
  /** Settles when `run` has returned (never rejects). */
  done?: Promise<void>;
  /** Holds one of the `concurrency` slots (until `releaseSlot` or its end). */
  slot: boolean;
}

export class EvaluationQueue<T> {
  private readonly debouncing = new Map<string, { item: T; timer: NodeJS.Timeout | undefined }>();
  private readonly ready: Array<{ key: string; item: T }> = [];
  private readonly running = new Set<Running<T>>();
  private slotsTaken = 0;
  private idleWaiters: Array<() => void> = [];
  private closed = false;

  constructor(private readonly opts: QueueOptions<T>) {}

  /**
   * Schedules a run for `key` after the debounce window (restarted by each new request;
   * `extendable: false`, a resumed item: `waitUntil` is not asked at its end).
   */
  push(
    key: string,
    item: T,
    opts: { delayMs?: number; absorb?: readonly string[]; extendable?: boolean } = {},
  ): T {
    if (this.closed) return item;
    const merge = this.opts.merge ?? ((_w: T, n: T) => n);
    // Requests waiting under another name of the same set (before a link joined them) become this one.
    for (const other of opts.absorb ?? []) if (other !== key) this.withdraw(other);
    const waiting = this.debouncing.get(key);
    const readyIdx = this.ready.findIndex((r) => r.key === key);
    let merged = item;
    if (waiting) {
      clearTimeout(waiting.timer);
      merged = merge(waiting.item, item);
    } else if (readyIdx >= 0) {
      merged = merge(this.ready[readyIdx]!.item, item);
      this.ready.splice(readyIdx, 1);
    }
    // A run of the same set is now stale: its inputs changed under it.
    this.abortWhere((k) => k === key);
    this.debounce(key, merged, opts.delayMs ?? this.opts.debounceMs, opts.extendable ?? true);
    return merged;
  }

  /**
   * `item` waits `ms` under `key`, then (asked `waitUntil`) longer or becomes ready. A push, a
   * flush or a withdrawal meanwhile replaces the entry: an answer for a replaced one is ignored.
   */
  private debounce(key: string, item: T, ms: number, extendable: boolean): void {
    const entry: { item: T; timer: NodeJS.Timeout | undefined } = { item, timer: undefined };
    const current = () => this.debouncing.get(key) === entry && !this.closed;
    const ready = () => {
      this.debouncing.delete(key);
      this.ready.push({ key, item });
      this.pump();
    };
    const ended = () => {
      const waitUntil = extendable ? this.opts.waitUntil : undefined;
      if (!waitUntil) return ready();
      entry.timer = undefined;
      void waitUntil(item).then(
        (until) => {
          if (!current()) return;
          const more = (until ?? 0) - Date.now();
          // Extended: asked again at its new end (another request may extend it further).
          if (more > 0) entry.timer = setTimeout(ended, more);
          else ready();
        },
        (e: unknown) => {
          // Unknown: the window this replica saw is over; run rather than wait forever.
          this.opts.onError?.(e, item);
          if (current()) ready();
        },
      );
    };
    entry.timer = setTimeout(ended, ms);
    this.debouncing.set(key, entry);
  }

  /** The item waiting under `key` (debouncing or ready), which a `push` for it would fold into. */
  waiting(key: string): T | undefined {
    return this.debouncing.get(key)?.item ?? this.ready.find((r) => r.key === key)?.item;
  }

  /** Ends every debounce window now: what was waiting for it becomes ready to run. */
  flush(): void {
    for (const [key, { item, timer }] of this.debouncing) {
      clearTimeout(timer);
      this.ready.push({ key, item });
    }
    this.debouncing.clear();
    this.pump();
  }

  /** Withdraws `key`: a waiting item is dropped (through `onDrop`), a running one aborted. */
  cancel(key: string): void {
    this.withdraw(key);
    this.notifyIdle();
  }

  /** Drops what waits under `key` (through `onDrop`) and aborts its run. */
  private withdraw(key: string): void {
    const w = this.debouncing.get(key);
    if (w) {
      clearTimeout(w.timer);
      this.debouncing.delete(key);
      this.opts.onDrop?.(w.item);
    }
    const i = this.ready.findIndex((r) => r.key === key);
    if (i >= 0) this.opts.onDrop?.(this.ready.splice(i, 1)[0]!.item);
    this.abortWhere((k) => k === key);
  }

  /** Aborts running items the predicate selects; returns how many. */
  abortWhere(pred: (key: string, item: T) => boolean): number {
    let n = 0;
    for (const r of this.running) {
      if (!r.controller.signal.aborted && pred(r.key, r.item)) {
        r.controller.abort(new Error('superseded by a newer change'));
        n += 1;
      }
    }
    return n;
  }

  /** Items waiting (debouncing or for a slot) or running. */
  get size(): number {
    return this.debouncing.size + this.ready.length + this.running.size;
  }

  /** Waiting (debouncing or for a slot) and running, apart (the metrics' queue depth). */
  depth(): { queued: number; running: number } {
    return { queued: this.debouncing.size + this.ready.length, running: this.running.size };
  }

  /** Resolves when nothing is waiting or running. */
  idle(): Promise<void> {
    if (this.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /**
   * Stops timers and aborts running items, resolving once every run has returned; waiting items
   * are dropped (they stay persisted). Idle waiters are released.
   */
  async close(): Promise<void> {
    this.closed = true;
    for (const { timer } of this.debouncing.values()) clearTimeout(timer);
    this.debouncing.clear();
    this.ready.length = 0;
    this.abortWhere(() => true);
    await Promise.all([...this.running].map((r) => r.done));
    this.notifyIdle();
  }

  private pump(): void {
    while (!this.closed && this.slotsTaken < this.opts.concurrency && this.ready.length > 0) {
      const { key, item } = this.ready.shift()!;
      const r: Running<T> = { key, item, controller: new AbortController(), slot: true };
      this.running.add(r);
      this.slotsTaken += 1;
      const release = () => {
        if (!r.slot) return;
        r.slot = false;
        this.slotsTaken -= 1;
        this.pump();
      };
      r.done = this.opts
        .run(item, r.controller.signal, release)
        .catch((e) => this.opts.onError?.(e, item))
        .finally(() => {
          this.running.delete(r);
          release();
          this.notifyIdle();
        });
    }
    this.notifyIdle();
  }

  private notifyIdle(): void {
    if (this.size > 0) return;
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const w of waiters) w();
  }
}
