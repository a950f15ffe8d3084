/**
 * Webhook deliveries seen, by GitHub's delivery id and by the payload's own identity
 * (`webhooks/delivery-identity.ts`, kept as a row of its own): a redelivery, or a captured
 * delivery replayed under a fresh id, does nothing twice.
 */
import type Database from 'better-sqlite3';

export class DeliveriesTable {
  constructor(private readonly db: Database.Database) {}

  /**
   * True the first time a delivery id, and its payload identity when it has one, are seen;
   * false for a redelivery or a replay.
   */
  claim(id: string, event: string, identity?: string): boolean {
    const insert = this.db.prepare(
      'INSERT OR IGNORE INTO deliveries (id, event, received_at) VALUES (?, ?, ?)',
    );
    return this.db.transaction(() => {
      const now = Date.now();
      const fresh = insert.run(id, event, now).changes === 1;
      const unseen = identity === undefined || insert.run(identity, event, now).changes === 1;
      return fresh && unseen;
    })();
  }

  prune(olderThanMs: number): void {
    this.db.prepare('DELETE FROM deliveries WHERE received_at < ?').run(Date.now() - olderThanMs);
  }
}
