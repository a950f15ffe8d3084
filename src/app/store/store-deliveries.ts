/**
 * Webhook deliveries seen, by GitHub's delivery id and by the payload's own identity
 * (`webhooks/delivery-identity.ts`, kept as a row of its own): a redelivery, or a captured
 * delivery replayed under a fresh id, does nothing twice. The claim is a unique row, so the same
 * delivery reaching two processes (two App replicas on one PostgreSQL database) is claimed once.
 * A PR delivery claims inside the transaction that records its facts and queues its evaluation
 * (`evaluation-requests.ts`): if any of it fails, the delivery stays unclaimed for a redelivery.
 */
import type { Driver } from './store-driver.ts';

const INSERT = 'INSERT INTO deliveries (id, event, received_at) VALUES (?, ?, ?) ON CONFLICT (id) DO NOTHING';

export class DeliveriesTable {
  constructor(private readonly db: Driver) {}

  /**
   * True the first time a delivery id, and its payload identity when it has one, are seen;
   * false for a redelivery or a replay.
   */
  claim(id: string, event: string, identity?: string): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      const now = Date.now();
      const fresh = (await tx.run(INSERT, [id, event, now])).changes === 1;
      const unseen = identity === undefined || (await tx.run(INSERT, [identity, event, now])).changes === 1;
      return fresh && unseen;
    });
  }

  /**
   * True when the delivery id, or its payload identity, was claimed already: a redelivery is
   * answered before any work. Only `claim` decides (two replicas may both read false).
   */
  async seen(id: string, identity?: string): Promise<boolean> {
    const row = await this.db.get('SELECT id FROM deliveries WHERE id = ? OR id = ? LIMIT 1', [
      id,
      identity ?? id,
    ]);
    return row !== undefined;
  }

  async prune(olderThanMs: number): Promise<void> {
    await this.db.run('DELETE FROM deliveries WHERE received_at < ?', [Date.now() - olderThanMs]);
  }
}
