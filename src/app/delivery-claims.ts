/**
 * Claiming webhook deliveries (`store/store-deliveries.ts`: a unique row per delivery id and per
 * payload identity), in one of two ways, each chosen on purpose per event:
 * - with the work (`recorded`, `claimIn`): the claim commits in the same transaction as the first
 *   durable record of what the delivery asks (a queued evaluation, a merge group's row, a
 *   hand-off's run). If the work fails before it is recorded, or the replica dies, nothing is
 *   committed and the delivery stays unclaimed: its redelivery, or the same delivery at another
 *   replica, does it. At least once recorded, and (the claim being unique) exactly once run.
 * - before the work (`claimFirst`): for work that is not a row (a 😕 reaction, an in-memory
 *   cancel, a cache dropped). At most once on purpose: a kill between the claim and the work loses
 *   it, and a retry can never do it twice.
 * A PR delivery claims in `evaluation-requests.ts`'s transaction (the same first way).
 */
import type { DeliveryClaim } from './evaluation-requests.ts';
import type { AppMetrics } from './ops/app-metrics.ts';
import type { Store } from './store/store.ts';

/** The store of the transaction a delivery is claimed in (for rooms that do not import the store). */
export type ClaimTransaction = Store;

export class DeliveryClaims {
  constructor(
    private readonly store: Store,
    private readonly metrics?: Pick<AppMetrics, 'delivery'>,
  ) {}

  /** In `tx`: true the first time the delivery is seen (always, without one); not counted yet. */
  async claimIn(tx: Store, delivery: DeliveryClaim | undefined): Promise<boolean> {
    return (
      delivery === undefined || (await tx.deliveries.claim(delivery.id, delivery.event, delivery.identity))
    );
  }

  /**
   * `work` and the delivery's claim in one transaction (`name`, as a conflict reports it): its
   * result, or undefined without running it when the delivery was claimed before. Rejects when
   * the transaction fails: then nothing is committed, the claim included.
   */
  async recorded<T>(
    delivery: DeliveryClaim | undefined,
    name: string,
    work: (tx: Store) => Promise<T>,
  ): Promise<{ value: T } | undefined> {
    const out = await this.store.transaction(
      async (tx) => ((await this.claimIn(tx, delivery)) ? { value: await work(tx) } : undefined),
      name,
    );
    if (delivery) this.counted(out !== undefined);
    return out;
  }

  /** True the first time the delivery is seen, committed at once, before any work (see above). */
  async claimFirst(delivery: DeliveryClaim): Promise<boolean> {
    return this.counted(await this.store.deliveries.claim(delivery.id, delivery.event, delivery.identity));
  }

  /** True when the delivery was claimed already: a redelivery is answered before any work. */
  async seen(delivery: DeliveryClaim): Promise<boolean> {
    const seen = await this.store.deliveries.seen(delivery.id, delivery.identity);
    if (seen) this.metrics?.delivery('duplicate');
    return seen;
  }

  /** Counts a claim's outcome in the metrics (`accepted` or `duplicate`); returns `first`. */
  counted(first: boolean): boolean {
    this.metrics?.delivery(first ? 'accepted' : 'duplicate');
    return first;
  }
}
