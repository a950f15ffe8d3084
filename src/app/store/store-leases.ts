/**
 * Leases: a named piece of work one App replica holds at a time (`evaluation:<id>` while it owns
 * a queued evaluation, `set:<set key>` while it runs one of that set). A row names
 * its holder and when it expires; the holder renews it while it works (`replicas/lease-keeper.ts`),
 * so a replica that crashed loses its leases when they expire and another takes the work over.
 * Taking a lease is one upsert that only wins over an expired row or the holder's own, so two
 * replicas asking at once cannot both get it (a unique row; PostgreSQL serialises the conflict).
 * Times are each replica's clock: replicas keep their clocks in step (NTP), and leases last far
 * longer than any skew.
 */
import { z } from 'zod';
import type { Driver } from './store-driver.ts';
import { rowReader } from './stored-row.ts';

const leaseRows = rowReader(
  'leases',
  ['name'],
  z.object({ name: z.string(), holder: z.string(), expires_at: z.number().int() }),
);

export interface Lease {
  name: string;
  holder: string;
  expiresAt: number;
}

export class LeasesTable {
  constructor(private readonly db: Driver) {}

  /** True when `holder` now holds `name` until `ttlMs` from now (taken, or renewed if its own). */
  async acquire(name: string, holder: string, ttlMs: number, now = Date.now()): Promise<boolean> {
    const r = await this.db.run(
      `INSERT INTO leases (name, holder, expires_at) VALUES (?, ?, ?)
       ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, expires_at = excluded.expires_at
       WHERE leases.expires_at <= ? OR leases.holder = excluded.holder`,
      [name, holder, now + ttlMs, now],
    );
    return r.changes === 1;
  }

  /** Extends `holder`'s lease; false when it is no longer theirs (expired and taken, or released). */
  async renew(name: string, holder: string, ttlMs: number, now = Date.now()): Promise<boolean> {
    const r = await this.db.run('UPDATE leases SET expires_at = ? WHERE name = ? AND holder = ?', [
      now + ttlMs,
      name,
      holder,
    ]);
    return r.changes === 1;
  }

  /** Gives `name` up (only `holder`'s own lease). */
  async release(name: string, holder: string): Promise<void> {
    await this.db.run('DELETE FROM leases WHERE name = ? AND holder = ?', [name, holder]);
  }

  /** The lease on `name` while it lasts. */
  async current(name: string, now = Date.now()): Promise<Lease | undefined> {
    const row = leaseRows.one(
      await this.db.get('SELECT * FROM leases WHERE name = ? AND expires_at > ?', [name, now]),
    );
    return row ? { name: row.name, holder: row.holder, expiresAt: row.expires_at } : undefined;
  }

  /** Leases that last, whose names start with `prefix` (e.g. every `merging:` one). */
  async held(prefix: string, now = Date.now()): Promise<Lease[]> {
    const rows = await this.db.all(
      "SELECT * FROM leases WHERE name LIKE ? ESCAPE '\\' AND expires_at > ? ORDER BY name",
      [`${prefix.replace(/[\\%_]/g, (c) => `\\${c}`)}%`, now],
    );
    return leaseRows.many(rows).map((r) => ({ name: r.name, holder: r.holder, expiresAt: r.expires_at }));
  }
}
