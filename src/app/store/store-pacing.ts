/**
 * GitHub's secondary limits are per installation, not per process: 80 content-creating requests
 * a minute and 500 an hour, 30 searches a minute. Replicas sharing one database count their
 * starts here, per bucket (`<installation>:content`, `<installation>:search`), so together they
 * stay under them. A start is taken in one transaction that first locks the bucket's row (an
 * UPDATE: PostgreSQL holds the row lock until commit, SQLite's write transaction is exclusive),
 * then counts the bucket's starts in each window: two replicas cannot both take the last one.
 */
import { z } from 'zod';
import type { Driver } from './store-driver.ts';

/** At most `max` starts in any `ms` milliseconds. */
export interface PacingWindow {
  max: number;
  ms: number;
}

const startRow = z.object({ started_at: z.number().int() });

export class PacingTable {
  constructor(private readonly db: Driver) {}

  /**
   * Takes a start in `bucket` now when every window has room (returns 0); otherwise takes
   * nothing and returns the milliseconds until the fullest window has room.
   */
  take(bucket: string, windows: readonly PacingWindow[], now = Date.now()): Promise<number> {
    const longest = Math.max(0, ...windows.map((w) => w.ms));
    return this.db.transaction(async (tx) => {
      await tx.run(
        'INSERT INTO pacing_buckets (bucket, touched_at) VALUES (?, ?) ON CONFLICT (bucket) DO NOTHING',
        [bucket, now],
      );
      // The row lock that serialises every replica's takes on this bucket.
      await tx.run('UPDATE pacing_buckets SET touched_at = ? WHERE bucket = ?', [now, bucket]);
      await tx.run('DELETE FROM pacing_starts WHERE bucket = ? AND started_at <= ?', [bucket, now - longest]);
      const starts = z
        .array(startRow)
        .parse(
          await tx.all('SELECT started_at FROM pacing_starts WHERE bucket = ? ORDER BY started_at DESC', [
            bucket,
          ]),
        )
        .map((r) => r.started_at);
      let wait = 0;
      for (const w of windows) {
        const inWindow = starts.filter((t) => t > now - w.ms);
        // Newest first: the start that must leave the window is the max-th newest.
        if (inWindow.length >= w.max) wait = Math.max(wait, inWindow[w.max - 1]! + w.ms - now);
      }
      if (wait > 0) return wait;
      await tx.run('INSERT INTO pacing_starts (bucket, started_at) VALUES (?, ?)', [bucket, now]);
      return 0;
    });
  }

  /** Starts counted in `bucket` within the last `ms` (tests and metrics). */
  async startsWithin(bucket: string, ms: number, now = Date.now()): Promise<number> {
    const row = z
      .object({ n: z.coerce.number() })
      .parse(
        await this.db.get('SELECT COUNT(*) AS n FROM pacing_starts WHERE bucket = ? AND started_at > ?', [
          bucket,
          now - ms,
        ]),
      );
    return row.n;
  }
}
