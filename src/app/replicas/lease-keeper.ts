/**
 * Holding leases (`store/store-leases.ts`) for as long as the work lasts: a held lease is renewed
 * every third of its time to live; when a renewal finds it gone (this replica stalled past its
 * expiry and another took it), or the work turned stale (`stale`: a newer request for the same
 * set reached another replica; asked more often than the renewal, every `staleMs`, so a set's
 * newer request does not wait a third of the lease for the run it replaces to stop), the lease's
 * `lost` signal aborts the work. A replica that dies renews nothing: its leases expire and a
 * waiting replica takes them over.
 */
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { LeasesTable } from '../store/store-leases.ts';

export interface HeldLease {
  readonly name: string;
  /** Aborted when the lease is lost or the work it guards turned stale. */
  readonly lost: AbortSignal;
  /** Stops renewing and gives the lease up (idempotent). */
  release(): Promise<void>;
}

export interface LeaseKeeperOptions {
  leases: LeasesTable;
  /** This replica's name in the rows it holds (default: host, pid and a random part). */
  holder?: string;
  /** How long a lease outlives its holder's last renewal. */
  ttlMs: number;
  /** How often a waiting replica asks again (default: a quarter of `ttlMs`, at most 500 ms). */
  retryMs?: number;
  /** How often a held lease's `stale` is asked (default: a third of `ttlMs`, at most 1 s). */
  staleMs?: number;
  onError?: (e: unknown, name: string) => void;
}

export interface HoldOptions {
  /** Asked at each renewal: true aborts the work (`lost`) and gives the lease up. */
  stale?: () => Promise<boolean>;
}

/** A replica's name, unique per process start. */
export function replicaName(): string {
  return `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
}

export class LeaseKeeper {
  readonly holder: string;
  private readonly held = new Set<HeldLease>();

  constructor(private readonly opts: LeaseKeeperOptions) {
    this.holder = opts.holder ?? replicaName();
  }

  /** The lease on `name` if no other replica holds it now. */
  async tryHold(name: string, opts: HoldOptions = {}): Promise<HeldLease | undefined> {
    if (!(await this.opts.leases.acquire(name, this.holder, this.opts.ttlMs))) return undefined;
    return this.keep(name, opts);
  }

  /** The lease on `name`, once whoever holds it gives it up or dies; rejects when `signal` aborts. */
  async hold(name: string, signal: AbortSignal, opts: HoldOptions = {}): Promise<HeldLease> {
    const retryMs = this.opts.retryMs ?? Math.min(500, Math.max(10, this.opts.ttlMs / 4));
    for (;;) {
      signal.throwIfAborted();
      const lease = await this.tryHold(name, opts);
      if (lease) {
        if (!signal.aborted) return lease;
        await lease.release();
        signal.throwIfAborted();
      }
      await new Promise<void>((ok) => {
        const timer = setTimeout(done, retryMs);
        function done() {
          clearTimeout(timer);
          signal.removeEventListener('abort', done);
          ok();
        }
        signal.addEventListener('abort', done, { once: true });
      });
    }
  }

  /** This replica's lease on `name`, while it holds it. */
  heldLease(name: string): HeldLease | undefined {
    for (const l of this.held) if (l.name === name) return l;
    return undefined;
  }

  /** Gives every held lease up (a clean shutdown: others need not wait for the expiry). */
  async releaseAll(): Promise<void> {
    await Promise.all([...this.held].map((l) => l.release()));
  }

  private keep(name: string, opts: HoldOptions): HeldLease {
    const { leases, ttlMs } = this.opts;
    const controller = new AbortController();
    let released = false;
    let renewing: Promise<void> = Promise.resolve();
    const renew = async () => {
      try {
        if (!(await leases.renew(name, this.holder, ttlMs)))
          controller.abort(
            new Error(`the lease on ${name} was lost (held past its expiry by ${this.holder})`),
          );
      } catch (e) {
        // A renewal that cannot reach the database is retried at the next tick; the lease only
        // counts as lost once another replica has taken it.
        this.opts.onError?.(e, name);
      }
    };
    const stale = opts.stale;
    const ask = async () => {
      if (controller.signal.aborted || !stale) return;
      try {
        if (await stale()) controller.abort(new Error('superseded by a newer request on another replica'));
      } catch (e) {
        this.opts.onError?.(e, name);
      }
    };
    const renewMs = Math.max(5, Math.floor(ttlMs / 3));
    // One chain for both, so a release waits for whichever is in flight.
    const timer = setInterval(() => {
      renewing = renewing.then(renew);
    }, renewMs);
    timer.unref();
    const staleTimer = stale
      ? setInterval(
          () => {
            renewing = renewing.then(ask);
          },
          Math.max(5, this.opts.staleMs ?? Math.min(1_000, renewMs)),
        )
      : undefined;
    staleTimer?.unref();
    const lease: HeldLease = {
      name,
      lost: controller.signal,
      release: async () => {
        if (released) return;
        released = true;
        clearInterval(timer);
        clearInterval(staleTimer);
        this.held.delete(lease);
        await renewing;
        await leases.release(name, this.holder);
      },
    };
    this.held.add(lease);
    return lease;
  }
}
