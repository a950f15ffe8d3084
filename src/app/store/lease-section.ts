/**
 * A short section of work one holder at a time does across App replicas (a read, a decision,
 * a GitHub call and a write for one PR head or one comment): a lease in `leases`, waited for
 * while another holds it, renewed every third of its life while the work lasts (a call waiting
 * for GitHub's content budget can be long), and given up at the end. A holder that dies renews
 * nothing: its lease expires after `ttlMs` and a waiting replica goes on.
 */
import type { LeasesTable } from './store-leases.ts';

export interface LeaseSectionOptions {
  /** How long the lease outlives its holder's last renewal (default 15 s). */
  ttlMs?: number;
  /** How often a replica waiting for the lease asks again (default 25 ms). */
  retryMs?: number;
}

export async function underLease<T>(
  leases: LeasesTable,
  name: string,
  holder: string,
  fn: () => Promise<T>,
  opts: LeaseSectionOptions = {},
): Promise<T> {
  const ttlMs = opts.ttlMs ?? 15_000;
  while (!(await leases.acquire(name, holder, ttlMs)))
    await new Promise((r) => setTimeout(r, opts.retryMs ?? 25));
  let renewing: Promise<unknown> = Promise.resolve();
  const timer = setInterval(
    () => {
      // A failed renewal is tried again at the next tick; the work itself decides nothing on it.
      renewing = renewing.then(() => leases.renew(name, holder, ttlMs)).catch(() => false);
    },
    Math.max(5, Math.floor(ttlMs / 3)),
  );
  timer.unref();
  try {
    return await fn();
  } finally {
    clearInterval(timer);
    await renewing;
    await leases.release(name, holder);
  }
}
