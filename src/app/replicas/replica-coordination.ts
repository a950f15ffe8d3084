/**
 * What App replicas sharing one PostgreSQL database agree on, through it (issue 27, item 2):
 * - each queued evaluation is owned by one replica (`evaluation:<id>`, held from its row's
 *   creation or adoption to its end); a replica that dies stops renewing, and every replica's
 *   sweep adopts unfinished evaluations nobody owns any more;
 * - one evaluation per linked set at a time (`set:<set key>`, held while it runs); a newer request
 *   for the set, on any replica, makes the run stale and aborts it within a second (`staleMs`);
 * - a set's debounce is its queued row's (`EvaluationStates.lastAskedAt`): requests folded into it
 *   at any replica extend the owner's window (`service.ts`);
 * - GitHub's secondary limits are paced per installation across replicas (`shared-pacing.ts`).
 * The embedded store (one process) needs none of it: the App's in-memory queue does this there.
 */
import type { EvaluationStates } from '../store/evaluation-states.ts';
import type { Store } from '../store/store.ts';
import { type HeldLease, LeaseKeeper } from './lease-keeper.ts';
import { SharedPacing, type SharedPacingOptions } from './shared-pacing.ts';

export interface ReplicaOptions extends SharedPacingOptions {
  /** How long a lease outlives its holder (default 15 s: a dead replica's work waits that long). */
  ttlMs?: number;
  holder?: string;
  log: { warn: (o: object, m: string) => void };
}

/** The lease a replica owns evaluation `id` under, from its row's creation or adoption to its end. */
export function evaluationLease(id: number): string {
  return `evaluation:${id}`;
}

/** One replica's side of the agreement: its leases, its sweep and its pacing. */
export class ReplicaCoordination {
  readonly keeper: LeaseKeeper;
  readonly pacing: SharedPacing;
  readonly ttlMs: number;
  private readonly states: EvaluationStates;
  private sweeper: NodeJS.Timeout | undefined;

  constructor(store: Store, opts: ReplicaOptions) {
    this.ttlMs = opts.ttlMs ?? 15_000;
    this.keeper = new LeaseKeeper({
      leases: store.leases,
      ttlMs: this.ttlMs,
      ...(opts.holder ? { holder: opts.holder } : {}),
      onError: (e, name) => opts.log.warn({ err: e, lease: name }, 'could not renew a replica lease'),
    });
    this.pacing = new SharedPacing(store.pacing, opts.limits ? { limits: opts.limits } : {});
    this.states = store.evaluations;
  }

  get holder(): string {
    return this.keeper.holder;
  }

  /**
   * Takes ownership of evaluation `id` for this replica: true for a row it just created, or one
   * whose owner is gone; false while another replica owns it (or when this one already does).
   */
  async own(id: number): Promise<boolean> {
    if (this.keeper.heldLease(evaluationLease(id))) return false;
    return (await this.keeper.tryHold(evaluationLease(id))) !== undefined;
  }

  /** Gives evaluation `id` up (it ended, or was folded into another). */
  async disown(id: number): Promise<void> {
    await this.keeper.heldLease(evaluationLease(id))?.release();
  }

  /**
   * Runs `fn` holding the set's lease: waits while another replica evaluates the set; the signal
   * `fn` gets also aborts when the lease is lost or a newer evaluation of the set was requested.
   * Resolves `undefined` without running when `signal` aborted while it waited.
   */
  async exclusive<T>(
    setKey: string,
    evaluationId: number,
    signal: AbortSignal,
    fn: (signal: AbortSignal) => Promise<T>,
  ): Promise<T | undefined> {
    let lease: HeldLease;
    try {
      lease = await this.keeper.hold(`set:${setKey}`, signal, {
        stale: async () => await this.states.newerUnfinished(setKey, evaluationId),
      });
    } catch (e) {
      if (signal.aborted) return undefined;
      throw e;
    }
    try {
      return await fn(AbortSignal.any([signal, lease.lost]));
    } finally {
      await lease.release();
    }
  }

  /** Calls `adopt` every lease period (the sweep that takes a dead replica's evaluations over). */
  sweep(adopt: () => Promise<unknown>): void {
    if (this.sweeper) return;
    let running = false;
    this.sweeper = setInterval(() => {
      if (running) return;
      running = true;
      void adopt().finally(() => {
        running = false;
      });
    }, this.ttlMs);
    this.sweeper.unref();
  }

  /** Stops the sweep and gives every lease up, so other replicas need not wait for expiries. */
  async close(): Promise<void> {
    clearInterval(this.sweeper);
    this.sweeper = undefined;
    await this.keeper.releaseAll();
  }
}
