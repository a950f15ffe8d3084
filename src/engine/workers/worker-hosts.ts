/**
 * The worker hosts beside the claims (tables `tandem_workers.hosts` and `holdings`, created with
 * the others in worker-tables.ts): each live worker's heartbeat and slots, the repositories each
 * host holds (mirrors, states, prepared dependencies), and the affinity that reads them.
 */
import type pg from 'pg';
import { repoKey } from '../../core/repo-name.ts';

/** Any pool or client (the same as worker-tables.ts's; declared here so neither imports the other's). */
type Queryable = Pick<pg.Pool, 'query'>;

const S = 'tandem_workers';

/** How often a running worker says it is alive (worker.ts). */
export const HEARTBEAT_SECONDS = 5;

/**
 * Live claims of `evaluation` still without an answer whose host has not beaten for
 * `silentSeconds` (killed, or cut off): made stale, so their configurations, sent again, run
 * elsewhere now rather than when the claim's lease runs out. Returns their configurations.
 * A host that was only slow still answers under its token until another worker takes the claim
 * over; after that its answer is refused. Either way one answer counts.
 */
export async function releaseSilentClaims(
  db: Queryable,
  evaluation: string,
  silentSeconds: number,
): Promise<Array<{ configuration: string; hostId: string }>> {
  // The claim is made stale, not deleted: the job sent again takes it over (worker-claims.ts),
  // and the silent holder, should it wake, can no longer store an answer under its token.
  const { rows } = await db.query(
    `UPDATE ${S}.claims c SET lease_until = now() - interval '1 second'
      WHERE c.evaluation = $1 AND c.lease_until >= now()
        AND NOT EXISTS (SELECT 1 FROM ${S}.answers a
                         WHERE a.evaluation = c.evaluation AND a.configuration = c.configuration
                           AND a.token = c.token)
        AND NOT EXISTS (SELECT 1 FROM ${S}.hosts h
                         WHERE h.host_id = c.host_id AND h.seen_at > now() - $2 * interval '1 second')
      RETURNING configuration, host_id`,
    [evaluation, silentSeconds],
  );
  return rows.map((r) => ({ configuration: r.configuration as string, hostId: r.host_id as string }));
}

/** The worker is alive, with `slots` configurations at once (the App's affinity counts its free ones). */
export async function heartbeat(db: Queryable, hostId: string, slots = 1): Promise<void> {
  await db.query(
    `INSERT INTO ${S}.hosts (host_id, seen_at, slots) VALUES ($1, now(), $2)
     ON CONFLICT (host_id) DO UPDATE SET seen_at = now(), slots = EXCLUDED.slots`,
    [hostId, slots],
  );
}

/** A worker leaving cleanly: its host is gone at once, its queue no longer preferred. */
export async function leave(db: Queryable, hostId: string): Promise<void> {
  await db.query(`DELETE FROM ${S}.hosts WHERE host_id = $1`, [hostId]);
}

export async function recordHoldings(db: Queryable, hostId: string, repos: readonly string[]): Promise<void> {
  if (repos.length === 0) return;
  await db.query(
    `INSERT INTO ${S}.holdings (host_id, repo) SELECT $1, unnest($2::text[])
     ON CONFLICT (host_id, repo) DO UPDATE SET used_at = now()`,
    [hostId, repos.map(repoKey)],
  );
}

/**
 * The live host (seen within `aliveSeconds`) that holds the most of these repositories, if any:
 * its mirrors, states and prepared dependencies make it the cheapest place to run them. `free`:
 * its slots less the configurations it runs now (live claims without an answer); the jobs
 * already waiting on its own queue are the caller's to count (pg-boss's).
 */
export async function preferredHost(
  db: Queryable,
  repos: readonly string[],
  aliveSeconds: number,
): Promise<{ hostId: string; free: number } | undefined> {
  const { rows } = await db.query(
    `SELECT h.host_id, w.slots - (
              SELECT count(*) FROM ${S}.claims c
               WHERE c.host_id = h.host_id AND c.lease_until >= now()
                 AND NOT EXISTS (SELECT 1 FROM ${S}.answers a
                                  WHERE a.evaluation = c.evaluation
                                    AND a.configuration = c.configuration AND a.token = c.token)
            ) AS free
       FROM ${S}.holdings h JOIN ${S}.hosts w USING (host_id)
      WHERE w.seen_at > now() - $2 * interval '1 second' AND h.repo = ANY($1::text[])
      GROUP BY h.host_id, w.slots ORDER BY count(*) DESC, max(h.used_at) DESC LIMIT 1`,
    [repos.map(repoKey), aliveSeconds],
  );
  const row = rows[0];
  return row ? { hostId: row.host_id as string, free: Number(row.free) } : undefined;
}
