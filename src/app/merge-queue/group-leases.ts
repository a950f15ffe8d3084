/**
 * The leases a replica gates merge groups under (`merge-group-gate.ts`): one per group, named
 * `merge-group:<key>`, held from the transaction that stores the group to its completed check,
 * in the shape `replicas/lease-keeper.ts` keeps them (this room does not import `replicas/`).
 */

/** A held lease (`replicas/lease-keeper.ts`'s `HeldLease`, which this room does not import). */
export interface GroupLease {
  /** Aborted when another replica took the lease over (this one stalled past its expiry). */
  readonly lost: AbortSignal;
  release(): Promise<void>;
}

/** Replicas' leases, as `replicas/lease-keeper.ts` keeps them (`index.ts` passes its keeper). */
export interface GroupLeases {
  readonly holder: string;
  readonly ttlMs: number;
  /** The lease on `name`, renewed until released, if no other replica holds it now. */
  tryHold(name: string): Promise<GroupLease | undefined>;
}

/** The lease a replica gates merge group `key` under. */
export function mergeGroupLease(key: string): string {
  return `merge-group:${key}`;
}
