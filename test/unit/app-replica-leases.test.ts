/**
 * Leases shared by replicas (store-leases.ts, replicas/lease-keeper.ts) on both backends: two
 * stores on one database stand for two App replicas. One of two asking at once gets a lease; a
 * held lease is renewed and so never taken; a crashed holder's lease expires and the waiting
 * replica takes the work over; work turned stale elsewhere is aborted through `lost`.
 */
import { describe, expect, it } from 'vitest';
import { LeaseKeeper } from '../../src/app/replicas/lease-keeper.ts';
import { STORE_BACKENDS, useTempStore } from './app-fixtures.ts';

/** Resolves once `check` holds, asking again at each turn of the event loop's timers. */
async function until(check: () => Promise<boolean>): Promise<void> {
  while (!(await check())) await new Promise((r) => setTimeout(r, 5));
}

describe.each(STORE_BACKENDS)('leases across replicas on %s', (backend) => {
  const temp = useTempStore('tandem-leases-', backend);

  it('gives a lease to exactly one of two replicas asking at once', async () => {
    const a = await temp.open();
    const b = await temp.open();
    for (let i = 0; i < 20; i++) {
      const got = await Promise.all([
        a.leases.acquire(`set:s${i}`, 'replica-a', 60_000),
        b.leases.acquire(`set:s${i}`, 'replica-b', 60_000),
      ]);
      expect(got.filter(Boolean)).toHaveLength(1);
    }
    expect(await a.leases.held('set:')).toHaveLength(20);
    // `_` and `%` in a prefix are literal.
    expect(await a.leases.held('set_')).toHaveLength(0);
  });

  it('keeps a renewed lease from the other replica, and hands it over once released', async () => {
    const a = new LeaseKeeper({ leases: (await temp.open()).leases, holder: 'replica-a', ttlMs: 150 });
    const bStore = await temp.open();
    const b = new LeaseKeeper({ leases: bStore.leases, holder: 'replica-b', ttlMs: 150 });
    const held = await a.tryHold('set:acme/api#1');
    expect(held).toBeDefined();
    const first = (await bStore.leases.current('set:acme/api#1'))!.expiresAt;
    // Renewed past its first expiry: still replica-a's, and replica-b cannot take it.
    await until(async () => (await bStore.leases.current('set:acme/api#1'))!.expiresAt > first + 150);
    expect(await b.tryHold('set:acme/api#1')).toBeUndefined();
    expect(held!.lost.aborted).toBe(false);
    const waiting = b.hold('set:acme/api#1', new AbortController().signal);
    await held!.release();
    const taken = await waiting;
    expect((await bStore.leases.current('set:acme/api#1'))?.holder).toBe('replica-b');
    await taken.release();
  });

  it("lets another replica take a crashed holder's lease once it expires", async () => {
    const crashed = await temp.open();
    // The holder dies: it took the lease and renews nothing any more.
    expect(await crashed.leases.acquire('set:acme/api#1', 'replica-dead', 200)).toBe(true);
    const live = await temp.open();
    const b = new LeaseKeeper({ leases: live.leases, holder: 'replica-b', ttlMs: 200 });
    expect(await b.tryHold('set:acme/api#1')).toBeUndefined();
    const taken = await b.hold('set:acme/api#1', new AbortController().signal);
    expect((await live.leases.current('set:acme/api#1'))?.holder).toBe('replica-b');
    // The dead holder cannot renew or release what is no longer its own.
    expect(await crashed.leases.renew('set:acme/api#1', 'replica-dead', 200)).toBe(false);
    await crashed.leases.release('set:acme/api#1', 'replica-dead');
    expect((await live.leases.current('set:acme/api#1'))?.holder).toBe('replica-b');
    await taken.release();
  });

  it('aborts the held work once it turns stale (a newer request elsewhere), and a wait on abort', async () => {
    const s = await temp.open();
    const a = new LeaseKeeper({ leases: s.leases, holder: 'replica-a', ttlMs: 60 });
    let newer = false;
    const held = await a.tryHold('set:acme/api#1', { stale: async () => newer });
    newer = true;
    await new Promise<void>((ok) => held!.lost.addEventListener('abort', () => ok(), { once: true }));
    expect(String(held!.lost.reason)).toContain('superseded by a newer request on another replica');
    await held!.release();
    const b = new LeaseKeeper({ leases: s.leases, holder: 'replica-b', ttlMs: 60_000 });
    const blocker = await b.tryHold('set:acme/web#2');
    const stop = new AbortController();
    const waiting = a.hold('set:acme/web#2', stop.signal);
    stop.abort(new Error('closing'));
    await expect(waiting).rejects.toThrow('closing');
    await blocker!.release();
  });

  it('asks whether held work turned stale every second, not only at the renewal (a third of the lease)', async () => {
    const s = await temp.open();
    // Renewed every 20 s: a newer request elsewhere must stop the run well before that.
    const a = new LeaseKeeper({ leases: s.leases, holder: 'replica-a', ttlMs: 60_000, staleMs: 20 });
    let newer = false;
    const held = await a.tryHold('set:acme/api#1', { stale: async () => newer });
    newer = true;
    await new Promise<void>((ok) => held!.lost.addEventListener('abort', () => ok(), { once: true }));
    expect(String(held!.lost.reason)).toContain('superseded by a newer request on another replica');
    // Still its lease (not lost to another replica): given up by the caller.
    expect((await s.leases.current('set:acme/api#1'))?.holder).toBe('replica-a');
    await held!.release();
  }, 10_000);
});
