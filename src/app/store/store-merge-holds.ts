/**
 * Sets being merged by `/tandem merge` (member by member), and what was asked of them meanwhile,
 * as rows every replica sees: each merged member's webhook asks to re-evaluate the rest, and a
 * `Tandem` check going back to queued halfway would make GitHub refuse the next member's merge.
 * A hold names its holder and expires unless renewed (`evaluation-requests.ts` renews it while the
 * merge runs), so a replica that dies mid-merge holds nothing for long; a request held for a
 * member nobody holds any more is taken by the next sweep (`orphaned`). On PostgreSQL a request
 * being held locks the hold's row (FOR SHARE), so the merge's end, which deletes the hold and
 * takes the held requests in one transaction, waits for it and takes it too.
 */
import { z } from 'zod';
import type { Driver } from './store-driver.ts';
import { flagColumn, rowReader } from './stored-row.ts';

export interface HeldRequest {
  seed: string;
  installationId: number;
  matrix: string | null;
  fresh: boolean;
}

const heldRows = rowReader(
  'held_requests',
  ['seed'],
  z.object({
    seed: z.string(),
    installation_id: z.number().int(),
    matrix: z.string().nullable(),
    fresh: flagColumn,
  }),
);

const toHeld = (rows: unknown[]): HeldRequest[] =>
  heldRows.many(rows).map((r) => ({
    seed: r.seed,
    installationId: r.installation_id,
    matrix: r.matrix,
    fresh: r.fresh,
  }));

export class MergeHoldsTable {
  constructor(private readonly db: Driver) {}

  /**
   * Holds each of `keys` for `holder` until `ttlMs` from now, unless someone (`holder` included)
   * holds it already; returns the keys it took.
   */
  hold(keys: readonly string[], holder: string, ttlMs: number, now = Date.now()): Promise<string[]> {
    return this.db.transaction(async (tx) => {
      const taken: string[] = [];
      for (const key of keys) {
        const r = await tx.run(
          `INSERT INTO merge_holds (pull_key, holder, expires_at) VALUES (?, ?, ?)
           ON CONFLICT (pull_key) DO UPDATE SET holder = excluded.holder, expires_at = excluded.expires_at
           WHERE merge_holds.expires_at <= ?`,
          [key, holder, now + ttlMs, now],
        );
        if (r.changes === 1) taken.push(key);
      }
      return taken;
    });
  }

  /** Extends `holder`'s holds on `keys`. */
  async renew(keys: readonly string[], holder: string, ttlMs: number, now = Date.now()): Promise<void> {
    for (const key of keys)
      await this.db.run('UPDATE merge_holds SET expires_at = ? WHERE pull_key = ? AND holder = ?', [
        now + ttlMs,
        key,
        holder,
      ]);
  }

  /** True while a merge holds `key` (inside a transaction on PostgreSQL: the hold stays until it ends). */
  async isHeld(key: string, now = Date.now()): Promise<boolean> {
    const lock = this.db.dialect === 'postgres' ? ' FOR SHARE' : '';
    const row = await this.db.get(
      `SELECT pull_key FROM merge_holds WHERE pull_key = ? AND expires_at > ?${lock}`,
      [key, now],
    );
    return row !== undefined;
  }

  /** Keeps a request for `seed` until its merge ends; folds into one held already (`full`, `--fresh` win). */
  async holdRequest(r: HeldRequest, now = Date.now()): Promise<void> {
    await this.db.run(
      `INSERT INTO held_requests (seed, installation_id, matrix, fresh, held_at) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (seed) DO UPDATE SET installation_id = excluded.installation_id,
         matrix = COALESCE(excluded.matrix, held_requests.matrix),
         fresh = CASE WHEN excluded.fresh = 1 OR held_requests.fresh = 1 THEN 1 ELSE 0 END`,
      [r.seed, r.installationId, r.matrix, r.fresh ? 1 : 0, now],
    );
  }

  /** Ends `holder`'s holds on `keys` and takes what was asked of them meanwhile. */
  release(keys: readonly string[], holder: string): Promise<HeldRequest[]> {
    return this.db.transaction(async (tx) => {
      const taken: HeldRequest[] = [];
      for (const key of keys) {
        await tx.run('DELETE FROM merge_holds WHERE pull_key = ? AND holder = ?', [key, holder]);
        taken.push(...toHeld(await tx.all('DELETE FROM held_requests WHERE seed = ? RETURNING *', [key])));
      }
      return taken;
    });
  }

  /**
   * Takes the requests no live hold keeps any more (their merge's replica died, or the request was
   * held just as the merge ended); `exceptHolder` also ends every hold not `holder`'s (one process
   * alone on its file: the holds it finds are a previous process's).
   */
  orphaned(opts: { now?: number; exceptHolder?: string } = {}): Promise<HeldRequest[]> {
    const now = opts.now ?? Date.now();
    return this.db.transaction(async (tx) => {
      await tx.run('DELETE FROM merge_holds WHERE expires_at <= ?', [now]);
      if (opts.exceptHolder) await tx.run('DELETE FROM merge_holds WHERE holder != ?', [opts.exceptHolder]);
      return toHeld(
        await tx.all(
          'DELETE FROM held_requests WHERE seed NOT IN (SELECT pull_key FROM merge_holds) RETURNING *',
        ),
      );
    });
  }
}
