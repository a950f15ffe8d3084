/**
 * The claims on configurations (table `tandem_workers.claims`, created with the others in
 * worker-tables.ts): who runs a configuration, under which token, until when. A claim is taken
 * under a fresh token by the worker that runs the configuration, renewed by that worker's
 * heartbeat while it runs, and free to take again only once stale — the holder stopped, froze
 * or lost its host. Answers are stored and believed only under the current token.
 */
import { randomUUID } from 'node:crypto';
import type { Queryable } from './worker-tables.ts';

const S = 'tandem_workers';

/**
 * Takes the configuration for this job under a fresh token: free, or its lease stale (the
 * holder's heartbeat stopped). Not while it has an answer. Otherwise another holder is alive;
 * `leaseUntil` says until when its lease runs unless renewed.
 */
export async function claimConfiguration(
  db: Queryable,
  c: { evaluation: string; configuration: string; jobId: string; hostId: string; leaseSeconds: number },
): Promise<{ claimed: true; token: string } | { claimed: false; leaseUntil: Date }> {
  const token = randomUUID();
  const { rows } = await db.query(
    `INSERT INTO ${S}.claims AS c (evaluation, configuration, job_id, host_id, lease_until, token)
       VALUES ($1, $2, $3, $4, now() + $5 * interval '1 second', $6)
     ON CONFLICT (evaluation, configuration) DO UPDATE
       SET job_id = EXCLUDED.job_id, host_id = EXCLUDED.host_id, lease_until = EXCLUDED.lease_until,
           token = EXCLUDED.token
       WHERE c.lease_until < now()
     RETURNING token`,
    [c.evaluation, c.configuration, c.jobId, c.hostId, c.leaseSeconds, token],
  );
  if (rows.length > 0) return { claimed: true, token };
  const held = await db.query(
    `SELECT lease_until FROM ${S}.claims WHERE evaluation = $1 AND configuration = $2`,
    [c.evaluation, c.configuration],
  );
  return { claimed: false, leaseUntil: (held.rows[0]?.lease_until as Date | undefined) ?? new Date() };
}

/** The holder's heartbeat: false when the claim is no longer this token's (taken over, or the evaluation ended). */
export async function renewClaim(db: Queryable, token: string, leaseSeconds: number): Promise<boolean> {
  const { rowCount } = await db.query(
    `UPDATE ${S}.claims SET lease_until = now() + $2 * interval '1 second' WHERE token = $1`,
    [token, leaseSeconds],
  );
  return (rowCount ?? 0) > 0;
}

/** A worker handing a job back (it is stopping): the next attempt need not wait for the lease. */
export async function releaseClaim(db: Queryable, token: string): Promise<void> {
  await db.query(`UPDATE ${S}.claims SET lease_until = now() - interval '1 second' WHERE token = $1`, [
    token,
  ]);
}

/** Whether a live holder (heartbeat within its lease) runs the configuration now. */
export async function liveClaim(
  db: Queryable,
  evaluation: string,
  configuration: string,
): Promise<Date | undefined> {
  const { rows } = await db.query(
    `SELECT lease_until FROM ${S}.claims
      WHERE evaluation = $1 AND configuration = $2 AND lease_until >= now()`,
    [evaluation, configuration],
  );
  return rows[0]?.lease_until as Date | undefined;
}
