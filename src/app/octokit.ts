/**
 * Probot's Octokit, tuned for the App. The throttling plugin still decides everything about
 * limits (which requests are writes, searches or notifications, how long a limit lasts); only
 * the schedulers it runs requests through are replaced:
 * - rate limits are waited out (Probot's default gives up after two tries), so a limit never
 *   turns into a verdict;
 * - the plugin's default schedulers are Bottleneck limiters whose local store yields to a
 *   `setTimeout` at every step: three of them stacked cost ~20 ms per request even when
 *   nothing is limited, which made the `queued` check run of a webhook wait behind the
 *   scheduler. `Gate` keeps the same limits (10 at once; searches 1 per 2 s; comments that
 *   notify 1 per 3 s) without the timer hops;
 * - writes (check runs, comments) are spaced by TANDEM_WRITE_SPACING_MS and run a few at a time
 *   instead of the plugin's fixed one per second, which would delay the `queued` check of the
 *   200th PR in a burst by minutes. GitHub's secondary limits are still honoured reactively: a
 *   403/429 with retry-after is waited out and retried.
 */
import { ProbotOctokit } from 'probot';

type ThrottleCallback = (
  retryAfter: number,
  options: { method: string; url: string },
  octokit: unknown,
) => boolean;

type Task = (...args: unknown[]) => Promise<unknown>;
/** The plugin marks retries `{ weight: 0 }`: they must not wait behind fresh requests. */
type JobOptions = { weight?: number; priority?: number };

/** At most `maxConcurrent` jobs at once, starts at least `minTime` ms apart, first come first served. */
export class Gate {
  private running = 0;
  private lastStart = 0;
  private readonly waiting: Array<() => void> = [];
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly maxConcurrent: number,
    private readonly minTime = 0,
  ) {}

  /** Bottleneck's signature: `schedule(fn, ...args)` or `schedule(options, fn, ...args)`. */
  schedule(...input: unknown[]): Promise<unknown> {
    const opts = (typeof input[0] === 'function' ? {} : input.shift()) as JobOptions;
    const [fn, ...args] = input as [Task, ...unknown[]];
    if (opts.weight === 0) return Promise.resolve().then(() => fn(...args));
    return new Promise<void>((start) => {
      this.waiting.push(start);
      this.pump();
    }).then(() =>
      Promise.resolve()
        .then(() => fn(...args))
        .finally(() => {
          this.running -= 1;
          this.pump();
        }),
    );
  }

  private pump(): void {
    if (this.timer) return;
    while (this.running < this.maxConcurrent && this.waiting.length > 0) {
      const wait = this.lastStart + this.minTime - Date.now();
      if (this.minTime > 0 && wait > 0) {
        this.timer = setTimeout(() => {
          this.timer = undefined;
          this.pump();
        }, wait);
        this.timer.unref();
        return;
      }
      this.running += 1;
      this.lastStart = Date.now();
      this.waiting.shift()!();
    }
  }
}

/** One gate per name, as the plugin's Bottleneck groups are keyed (Tandem uses one key). */
class GateGroup {
  private readonly gates = new Map<string, Gate>();
  constructor(
    private readonly maxConcurrent: number,
    private readonly minTime = 0,
  ) {}
  key(id = ''): Gate {
    let g = this.gates.get(id);
    if (!g) {
      g = new Gate(this.maxConcurrent, this.minTime);
      this.gates.set(id, g);
    }
    return g;
  }
}

type FailedHandler = (error: unknown, info: { args: unknown[]; retryCount: number }) => unknown;

/**
 * The plugin's retry scheduler: runs a request; when it fails, asks the `failed` listeners (the
 * plugin's rate-limit logic) and retries after the milliseconds one of them returns.
 */
export class RetryScheduler {
  private readonly failed: FailedHandler[] = [];

  on(event: string, handler: FailedHandler): this {
    if (event === 'failed') this.failed.push(handler);
    return this;
  }

  async schedule(fn: Task, ...args: unknown[]): Promise<unknown> {
    for (let retryCount = 0; ; retryCount++) {
      try {
        return await fn(...args);
      } catch (error) {
        let wait: number | undefined;
        for (const h of this.failed) {
          const r = await h(error, { args, retryCount });
          if (typeof r === 'number') {
            wait = r;
            break;
          }
        }
        if (wait === undefined) throw error;
        await new Promise((r) => setTimeout(r, wait));
      }
    }
  }
}

/**
 * The App's Octokit class. Its gates are shared by every client the class builds (one class per
 * App process, as the plugin's own groups are per process); `writeSpacingMs` is
 * TANDEM_WRITE_SPACING_MS from the settings.
 */
export function tandemOctokit(opts: { writeSpacingMs: number }): typeof ProbotOctokit {
  const spacing = opts.writeSpacingMs;
  const gates = {
    global: new GateGroup(10),
    auth: new GateGroup(1),
    search: new GateGroup(1, 2_000),
    notifications: new GateGroup(1, 3_000),
    write: new GateGroup(spacing > 0 ? 1 : 8, Math.max(spacing, 0)),
  };
  return ProbotOctokit.defaults((options: Record<string, unknown>) => {
    const waitOut: ThrottleCallback = () => true;
    return {
      ...options,
      throttle: {
        ...(options.throttle as object),
        ...gates,
        // Per client: the plugin registers its `failed` listener on it once per client.
        retryLimiter: new RetryScheduler(),
        onRateLimit: waitOut,
        onSecondaryRateLimit: waitOut,
      },
    };
  }) as typeof ProbotOctokit;
}
