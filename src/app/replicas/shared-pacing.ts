/**
 * GitHub's secondary limits shared by every replica of one installation (`store/store-pacing.ts`):
 * before a content-creating request or a search leaves, it takes a start in its installation's
 * bucket, waiting (without holding anything) until the windows have room. The App's in-process
 * gates (`octokit.ts`) still pace each process; this makes the sum of the processes fit.
 */
import { GITHUB_LIMITS } from '../../core/github-rate-windows.ts';
import type { PacingTable, PacingWindow } from '../store/store-pacing.ts';

export type PacedKind = 'content' | 'search';

export interface SharedPacingOptions {
  /** The windows per kind (GitHub's documented limits by default; tests shrink them). */
  limits?: Record<PacedKind, readonly PacingWindow[]>;
}

export class SharedPacing {
  /** Starts that waited for room, and for how long in all (metrics). */
  waits = 0;
  waitedMs = 0;
  private readonly limits: Record<PacedKind, readonly PacingWindow[]>;

  constructor(
    private readonly table: PacingTable,
    opts: SharedPacingOptions = {},
  ) {
    this.limits = opts.limits ?? withArrivalMargin(GITHUB_LIMITS);
  }

  /** Resolves once a `kind` start of `installation` fits the shared windows; rejects on `signal`. */
  async take(installation: string, kind: PacedKind, signal?: AbortSignal): Promise<void> {
    for (;;) {
      signal?.throwIfAborted();
      const wait = await this.table.take(`${installation}:${kind}`, this.limits[kind]);
      if (wait === 0) return;
      this.waits += 1;
      this.waitedMs += wait;
      await pause(wait, signal);
    }
  }
}

/**
 * How late a request may reach GitHub after its start was taken (a loaded replica, the network).
 * GitHub counts a window from the arrivals: a window here counted from the takes must be longer by
 * that much, or the first start a window frees can arrive while the earliest arrival still counts.
 */
const ARRIVAL_MARGIN_MS = 2_000;

function withArrivalMargin(
  limits: Record<PacedKind, readonly PacingWindow[]>,
): Record<PacedKind, readonly PacingWindow[]> {
  const longer = (ws: readonly PacingWindow[]) => ws.map((w) => ({ ...w, ms: w.ms + ARRIVAL_MARGIN_MS }));
  return { content: longer(limits.content), search: longer(limits.search) };
}

function pause(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((ok, fail) => {
    // Aborted while the database answered: no abort event will come.
    if (signal?.aborted) {
      fail(signal.reason);
      return;
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      ok();
    }, ms);
    function onAbort() {
      clearTimeout(timer);
      fail(signal?.reason);
    }
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
