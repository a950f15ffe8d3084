/**
 * Webhook deliveries seen, by GitHub's delivery id: a redelivery does nothing twice.
 */
import type Database from 'better-sqlite3';

export class DeliveriesTable {
  constructor(private readonly db: Database.Database) {}

  /** True the first time a delivery id is seen; false for a redelivery. */
  claim(id: string, event: string): boolean {
    const r = this.db
      .prepare('INSERT OR IGNORE INTO deliveries (id, event, received_at) VALUES (?, ?, ?)')
      .run(id, event, Date.now());
    return r.changes === 1;
  }

  prune(olderThanMs: number): void {
    this.db.prepare('DELETE FROM deliveries WHERE received_at < ?').run(Date.now() - olderThanMs);
  }
}
