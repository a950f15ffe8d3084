/**
 * A PR's merge comment (the `/tandem merge` status, or the queue's line and its `Tandem queue`
 * check) is written under a lease on the PR in the shared database, so two App replicas saying
 * something about the same PR at once never both create the comment or the check: the second
 * waits and then edits what the first made.
 */
import { randomUUID } from 'node:crypto';
import { underLease } from '../store/lease-section.ts';
import type { Store } from '../store/store.ts';

/** This process's name in the merge-comment leases. */
const HOLDER = `merge-${randomUUID()}`;

export function underMergeCommentLease<T>(store: Store, pull: string, fn: () => Promise<T>): Promise<T> {
  return underLease(store.leases, `merge-comment:${pull}`, HOLDER, fn);
}
