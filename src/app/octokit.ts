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
import { GITHUB_LIMITS, type StartWindow } from '../core/github-rate-windows.ts';
import type { AppMetrics, LimitWaitKind } from './ops/app-metrics.ts';
import { countingFetch } from './ops/github-route-class.ts';
import { publishing } from './publishing-signal.ts';
import type { SharedPacing } from './replicas/shared-pacing.ts';

type ThrottleCallback = (
  retryAfter: number,
  options: { method: string; url: string },
  octokit: unknown,
) => boolean;

type Task = (...args: unknown[]) => Promise<unknown>;
/** The plugin marks retries `{ weight: 0 }`: they must not wait behind fresh requests. */
type JobOptions = { weight?: number; priority?: number };

export interface GateOptions {
  /** Sliding windows every start must fit in (e.g. 80 a minute and 500 an hour). */
  windows?: readonly StartWindow[];
  /** Newest waiting job first: the latest comment is the one worth posting first. */
  newestFirst?: boolean;
  /** A job whose start a window or a pause held (not `minTime` spacing): how long it waited. */
  onLimitWait?: (waitedMs: number) => void;
}

interface Waiting {
  start: () => void;
  since: number;
  /** A window or a pause held it at some point (a limit wait, for the metrics). */
  held: boolean;
}

/**
 * At most `maxConcurrent` jobs at once, starts at least `minTime` ms apart and within the
 * `windows`, first come first served (or newest first); `pauseFor` holds every start (a
 * `retry-after` or an exhausted `x-ratelimit-remaining` said so).
 */
export class Gate {
  private running = 0;
  private lastStart = 0;
  private pausedUntil = 0;
  /** Start times within the longest window, oldest first. */
  private readonly starts: number[] = [];
  private readonly waiting: Waiting[] = [];
  private timer: NodeJS.Timeout | undefined;
  private readonly longest: number;

  constructor(
    private readonly maxConcurrent: number,
    private readonly minTime = 0,
    private readonly opts: GateOptions = {},
  ) {
    this.longest = Math.max(0, ...(opts.windows ?? []).map((w) => w.ms));
  }

  /** Bottleneck's signature: `schedule(fn, ...args)` or `schedule(options, fn, ...args)`. */
  schedule(...input: unknown[]): Promise<unknown> {
    const opts = (typeof input[0] === 'function' ? {} : input.shift()) as JobOptions;
    const [fn, ...args] = input as [Task, ...unknown[]];
    if (opts.weight === 0) {
      // A retry goes at once, but GitHub counts it: so do the windows, or the next fresh start
      // would be one over the budget and refused in turn.
      if (this.longest > 0) this.starts.push(Date.now());
      return Promise.resolve().then(() => fn(...args));
    }
    return new Promise<void>((start) => {
      this.waiting.push({ start, since: Date.now(), held: false });
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

  /** Holds every start for `ms` from now (a longer hold already set stays). */
  pauseFor(ms: number): void {
    this.pausedUntil = Math.max(this.pausedUntil, Date.now() + ms);
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    this.pump();
  }

  /** Milliseconds until the next start is allowed (0: now), and whether a limit (not spacing) holds it. */
  private delay(now: number): { wait: number; limited: boolean } {
    while (this.starts.length > 0 && this.starts[0]! <= now - this.longest) this.starts.shift();
    let limit = this.pausedUntil - now;
    for (const w of this.opts.windows ?? []) {
      const inWindow = this.starts.filter((t) => t > now - w.ms);
      if (inWindow.length >= w.max) limit = Math.max(limit, inWindow[inWindow.length - w.max]! + w.ms - now);
    }
    const spacing = this.minTime > 0 ? this.lastStart + this.minTime - now : 0;
    return { wait: Math.max(limit, spacing, 0), limited: limit > 0 };
  }

  private pump(): void {
    if (this.timer) return;
    while (this.running < this.maxConcurrent && this.waiting.length > 0) {
      const now = Date.now();
      const { wait, limited } = this.delay(now);
      if (limited) for (const w of this.waiting) w.held = true;
      if (wait > 0) {
        this.timer = setTimeout(() => {
          this.timer = undefined;
          this.pump();
        }, wait);
        this.timer.unref();
        return;
      }
      this.running += 1;
      this.lastStart = now;
      if (this.longest > 0) this.starts.push(now);
      const next = (this.opts.newestFirst ? this.waiting.pop() : this.waiting.shift())!;
      if (next.held) this.opts.onLimitWait?.(now - next.since);
      next.start();
    }
  }
}

/** One gate per name, as the plugin's Bottleneck groups are keyed (Tandem uses one key). */
class GateGroup {
  private readonly gates = new Map<string, Gate>();
  constructor(
    private readonly maxConcurrent: number,
    private readonly minTime = 0,
    private readonly opts: GateOptions = {},
  ) {}
  key(id = ''): Gate {
    let g = this.gates.get(id);
    if (!g) {
      g = new Gate(this.maxConcurrent, this.minTime, this.opts);
      this.gates.set(id, g);
    }
    return g;
  }
  /** Holds every gate of the group (Tandem's clients share one key). */
  pauseFor(ms: number): void {
    for (const g of this.gates.values()) g.pauseFor(ms);
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

/** A request that creates content GitHub notifies about (the plugin's class): comments, merges, issues. */
const CONTENT_PATH = /\/(issues|pulls)(\/[^/]+\/(comments|merge|reviews|requested_reviewers))?$|\/comments$/;

// Where the client reads the publishing evaluation's abort signal (`publishing-signal.ts`).
export { publishing };

/**
 * The App's Octokit class. Its gates are shared by every client the class builds (one class per
 * App process, as the plugin's own groups are per process); `writeSpacingMs` is
 * TANDEM_WRITE_SPACING_MS from the settings.
 *
 * Pacing: content-creating requests (the plugin's notification-triggering writes) start within
 * 80 a minute and 500 an hour, newest first (the latest comment matters most; a superseded one
 * is dropped by its evaluation's abort signal before it leaves); searches within 30 a minute.
 * Check-run writes do not count against the content budget, so a conclusion never waits behind a
 * comment. Reactions: a `retry-after` holds the gate of that kind of request for as long (not
 * only the request that got it), and `x-ratelimit-remaining: 0` holds everything until
 * `x-ratelimit-reset`.
 */
export function tandemOctokit(opts: {
  writeSpacingMs: number;
  /**
   * Replicas on one database: the installation-wide windows every replica counts in
   * (`replicas/shared-pacing.ts`), asked at request time (the store opens after the class).
   */
  sharedPacing?: () => SharedPacing | undefined;
  /** The App instance's metrics: GitHub requests and limit waits. */
  metrics?: Pick<AppMetrics, 'githubRequest' | 'limitWait'>;
}): typeof ProbotOctokit {
  const spacing = opts.writeSpacingMs;
  const { metrics } = opts;
  const waits = (kind: LimitWaitKind): GateOptions =>
    metrics ? { onLimitWait: (ms) => metrics.limitWait(kind, ms) } : {};
  const gates = {
    global: new GateGroup(10, 0, waits('core')),
    auth: new GateGroup(1),
    search: new GateGroup(10, 0, { windows: GITHUB_LIMITS.search, ...waits('search') }),
    notifications: new GateGroup(10, 0, {
      windows: GITHUB_LIMITS.content,
      newestFirst: true,
      ...waits('content'),
    }),
    write: new GateGroup(spacing > 0 ? 1 : 8, Math.max(spacing, 0), waits('write')),
  };
  const KIND = { global: 'core', search: 'search', notifications: 'content', write: 'write' } as const;
  /** The refused request waits `seconds` (counted here); its kind's gate holds the others as long. */
  const holdFor = (seconds: number, gate: keyof typeof KIND) => {
    metrics?.limitWait(KIND[gate], seconds * 1000);
    gates[gate].pauseFor(seconds * 1000);
  };
  const onSecondaryRateLimit: ThrottleCallback = (retryAfter, options) => {
    if (options.method === 'GET') holdFor(retryAfter, options.url.includes('/search/') ? 'search' : 'global');
    else holdFor(retryAfter, CONTENT_PATH.test(options.url) ? 'notifications' : 'write');
    return true;
  };
  const onRateLimit: ThrottleCallback = (retryAfter) => {
    holdFor(retryAfter, 'global');
    return true;
  };
  const Paced = ProbotOctokit.plugin((octokit, clientOptions) => {
    const installation = installationOf(clientOptions);
    octokit.hook.before('request', async (options) => {
      const signal = publishing.getStore();
      const content = options.method !== 'GET' && CONTENT_PATH.test(options.url);
      if (signal && content) options.request = { ...options.request, signal };
      const shared = opts.sharedPacing?.();
      const search = options.method === 'GET' && options.url.includes('/search/');
      if (shared && (content || search))
        await shared.take(installation, content ? 'content' : 'search', signal);
    });
    octokit.hook.after('request', (response) => {
      const h = response.headers;
      if (String(h['x-ratelimit-remaining']) !== '0') return;
      const resetMs = Number(h['x-ratelimit-reset']) * 1000 - Date.now();
      // Each resource has its own budget: an exhausted search budget holds searches only.
      const gate = h['x-ratelimit-resource'] === 'search' ? gates.search : gates.global;
      if (resetMs > 0) gate.pauseFor(resetMs + 1000);
    });
  });
  return Paced.defaults((options: Record<string, unknown>) => ({
    ...options,
    ...(metrics
      ? {
          request: {
            ...(options.request as object),
            fetch: countingFetch(
              (method, route, status) => metrics.githubRequest(method, route, status),
              (options.request as { fetch?: typeof fetch } | undefined)?.fetch,
            ),
          },
        }
      : {}),
    throttle: {
      ...(options.throttle as object),
      ...gates,
      // Per client: the plugin registers its `failed` listener on it once per client.
      retryLimiter: new RetryScheduler(),
      onRateLimit,
      onSecondaryRateLimit,
    },
  })) as typeof ProbotOctokit;
}

/** The installation a client acts for (its pacing bucket); token clients share one bucket. */
function installationOf(clientOptions: unknown): string {
  const auth = (clientOptions as { auth?: { installationId?: unknown } } | undefined)?.auth;
  const id = auth?.installationId;
  return typeof id === 'number' || typeof id === 'string' ? String(id) : 'token';
}
