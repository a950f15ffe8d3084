/**
 * Requests for an evaluation, stored before anything runs (issue 27, item 2). A PR delivery is one
 * transaction: its claim (delivery id and payload identity), the PR's facts and links, and the
 * queued evaluation of each set it asks for (created, or the set's waiting one reused: the
 * database keeps one per set, whichever replica asks). If any of it throws, nothing is committed
 * and the delivery stays unclaimed, so GitHub's redelivery (or the other replica) does it whole.
 * A request for a member that `/tandem merge` is merging is held as a row instead
 * (`store-merge-holds.ts`) and asked again when the merge ends, on whichever replica merged, or
 * by the sweep once a dead replica's hold expired.
 */
import { setKey } from '../core/linked-set.ts';
import type { MatrixMode } from '../core/matrix-mode.ts';
import { pullKey } from '../core/pull-ref.ts';
import type { PullInfo } from '../core/pull-request.schema.ts';
import type { OrgConfigCache } from './evaluations/org-config-cache.ts';
import type { EvalItem } from './evaluations/run-evaluation.ts';
import { indexedSet } from './linking/indexed-set.ts';
import { recordPull } from './linking/record-pull.ts';
import { evaluationLease } from './replicas/replica-coordination.ts';
import type { HeldRequest, Store } from './store/store.ts';

/** A webhook delivery as GitHub names it, and its payload's own identity (`delivery-identity.ts`). */
export interface DeliveryClaim {
  id: string;
  event: string;
  identity?: string | undefined;
}

export interface RequestOptions {
  matrix?: MatrixMode | undefined;
  fresh?: boolean | undefined;
}

/**
 * A request as stored: held for a merge, or the set's queued evaluation as the queue takes it
 * (`created`: by this request; `component`: the set's members as the index names them, requests
 * waiting under their names fold in).
 */
export type StoredRequest =
  | { kind: 'held'; seed: string }
  | { kind: 'queued'; item: EvalItem; component: string[]; created: boolean };

export interface EvaluationRequestsOptions {
  store: Store;
  configs: OrgConfigCache;
  /** This process's name on the merge holds it takes (its replica name). */
  holder: string;
  /** How long a merge hold outlives its holder's last renewal. */
  holdMs: number;
  /**
   * Replicas: a row a request creates is owned by this process (its lease taken for this long) in
   * the request's own transaction, so no replica's sweep can adopt it between its commit and the
   * lease (it would run the set before the rest of a burst had folded in).
   */
  ownCreatedMs?: number | undefined;
  log: { warn: (o: object, m: string) => void };
}

export class EvaluationRequests {
  constructor(private readonly o: EvaluationRequestsOptions) {}

  /** The set around `seed` as the link index (`q`: a transaction's store) knows it: enough to name it. */
  async componentOf(seed: string, q: Store = this.o.store): Promise<string[]> {
    const installationId = (await q.pulls.get(seed))?.installationId;
    const config = installationId === undefined ? undefined : this.o.configs.config(installationId);
    return await indexedSet(q, seed, config);
  }

  /**
   * In `tx`: held while a merge holds `seed`, else the set's queued evaluation, created or reused
   * (`named`: the set's members, when the caller has named it already).
   */
  async store(
    tx: Store,
    seed: string,
    installationId: number,
    opts: RequestOptions,
    named?: string[],
  ): Promise<StoredRequest> {
    const fresh = opts.fresh === true;
    if (await tx.mergeHolds.isHeld(seed)) {
      await tx.mergeHolds.holdRequest({ seed, installationId, matrix: opts.matrix ?? null, fresh });
      return { kind: 'held', seed };
    }
    const component = named ?? (await this.componentOf(seed, tx));
    const key = setKey(component);
    const queued = await tx.evaluations.queue({
      setKey: key,
      seed,
      installationId,
      matrix: opts.matrix ?? null,
      fresh,
    });
    if (queued.created && this.o.ownCreatedMs !== undefined)
      await tx.leases.acquire(evaluationLease(queued.id), this.o.holder, this.o.ownCreatedMs);
    const item = { evaluationId: queued.id, setKey: key, seed, installationId, matrix: opts.matrix, fresh };
    return { kind: 'queued', item, component, created: queued.created };
  }

  /** `item` with what requests another replica folded into its row asked for (`full`, `--fresh`). */
  async withAsked(item: EvalItem): Promise<EvalItem> {
    const asked = await this.o.store.evaluations.asked(item.evaluationId);
    const matrix = item.matrix ?? (asked?.matrix as MatrixMode | null) ?? undefined;
    return { ...item, matrix, fresh: item.fresh === true || asked?.fresh === true };
  }

  /**
   * A PR delivery in one transaction: claimed, recorded, and its evaluations stored (its own set's
   * when open; each open neighbour's when it closed: the set goes on without it). Undefined when
   * the delivery was claimed before (a redelivery, or the same delivery at another replica).
   */
  async deliver(
    pull: PullInfo,
    installationId: number,
    delivery: DeliveryClaim | undefined,
  ): Promise<StoredRequest[] | undefined> {
    const key = pullKey(pull.ref);
    return this.o.store.transaction(async (tx) => {
      if (delivery && !(await tx.deliveries.claim(delivery.id, delivery.event, delivery.identity)))
        return undefined;
      await recordPull(tx, pull, installationId);
      let seeds = [key];
      if (pull.state !== 'open') {
        const neighbours = new Set([...(await tx.links.from(key)).map(pullKey), ...(await tx.links.to(key))]);
        seeds = [];
        for (const n of neighbours) if ((await tx.pulls.get(n))?.state === 'open') seeds.push(n);
      }
      const stored: StoredRequest[] = [];
      // Rows are locked in the order of their set's name, so two deliveries never wait on each other.
      const named: Array<{ seed: string; component: string[]; key: string }> = [];
      for (const seed of seeds) {
        const component = await this.componentOf(seed, tx);
        named.push({ seed, component, key: setKey(component) });
      }
      named.sort((x, y) => (x.key < y.key ? -1 : x.key > y.key ? 1 : 0));
      for (const n of named) stored.push(await this.store(tx, n.seed, installationId, {}, n.component));
      return stored;
    }, 'store a PR delivery');
  }

  /**
   * Runs `merge` with `members` held (renewed while it runs), then ends the holds and hands each
   * request held meanwhile to `ask`. Members another merge holds already stay that merge's.
   */
  async whileMerging<T>(
    members: readonly string[],
    merge: () => Promise<T>,
    ask: (r: HeldRequest) => Promise<void>,
  ): Promise<T> {
    const { store, holder, holdMs } = this.o;
    const held = await store.mergeHolds.hold(members, holder, holdMs);
    let renewing = Promise.resolve();
    const timer = setInterval(
      () => {
        renewing = renewing.then(async () => {
          try {
            await store.mergeHolds.renew(held, holder, holdMs);
          } catch (e) {
            this.o.log.warn({ err: e, members: held }, 'could not renew the hold of a merge');
          }
        });
      },
      Math.max(5, Math.floor(holdMs / 3)),
    );
    timer.unref();
    try {
      return await merge();
    } finally {
      clearInterval(timer);
      await renewing;
      for (const r of await store.mergeHolds.release(held, holder)) await ask(r);
    }
  }

  /** True while a merge (on any replica) holds `key`. */
  async isMerging(key: string): Promise<boolean> {
    return await this.o.store.mergeHolds.isHeld(key);
  }

  /**
   * Requests held for merges that are over without asking them (their replica died): `alone`,
   * this process is the only one on its database and every hold but its own is a previous one's.
   */
  async orphaned(alone: boolean): Promise<HeldRequest[]> {
    return await this.o.store.mergeHolds.orphaned(alone ? { exceptHolder: this.o.holder } : {});
  }
}
