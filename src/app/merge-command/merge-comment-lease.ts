/**
 * A PR's merge comment (the `/tandem merge` status, or the queue's line and its `Tandem queue`
 * check) is written under a lease on the PR in the shared database, so two App replicas saying
 * something about the same PR at once never both create the comment or the check: the second
 * waits and then edits what the first made.
 */
import { randomUUID } from 'node:crypto';
import { underLease } from '../store/lease-section.ts';
import type { Store } from '../store/store.ts';

/** Each store's name in the merge-comment leases (one store per App process; tests open two). */
const holders = new WeakMap<Store, string>();

export function underMergeCommentLease<T>(store: Store, pull: string, fn: () => Promise<T>): Promise<T> {
  let holder = holders.get(store);
  if (!holder) {
    holder = `merge-${randomUUID()}`;
    holders.set(store, holder);
  }
  return underLease(store.leases, `merge-comment:${pull}`, holder, fn);
}
