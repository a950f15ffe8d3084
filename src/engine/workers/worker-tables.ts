/**
 * Tandem's own rows beside pg-boss's queues (schema `tandem_workers`): the evaluation bundles
 * (deleted when the evaluation ends), the configuration claims (who runs it, until when), the
 * results (one per configuration: the first stored wins, a retried job's duplicate is dropped),
 * the live workers (heartbeats) and what each host holds (repositories it mirrored and prepared).
 * A result is stored with a NOTIFY in the same transaction, so the App hears of it once it is
 * visible. pg-boss moves jobs; these rows say what a job's outcome was.
 */
import type pg from 'pg';
import { repoKey } from '../../core/repo-name.ts';
import { RESULTS_CHANNEL } from '../../core/worker-job.schema.ts';

const S = 'tandem_workers';

export type Queryable = Pick<pg.Pool, 'query'>;

export async function createWorkerTables(db: Queryable): Promise<void> {
  // One statement per call: concurrent first starts race on CREATE; the advisory lock serialises them.
  await db.query(`
    SELECT pg_advisory_lock(hashtext('${S}.migrate'));
    CREATE SCHEMA IF NOT EXISTS ${S};
    CREATE TABLE IF NOT EXISTS ${S}.bundles (
      evaluation uuid PRIMARY KEY, body text NOT NULL, created_at timestamptz NOT NULL DEFAULT now());
    CREATE TABLE IF NOT EXISTS ${S}.claims (
      evaluation uuid NOT NULL, configuration text NOT NULL, job_id uuid NOT NULL,
      host_id text NOT NULL, lease_until timestamptz NOT NULL,
      PRIMARY KEY (evaluation, configuration));
    CREATE TABLE IF NOT EXISTS ${S}.results (
      evaluation uuid NOT NULL, configuration text NOT NULL, outcome jsonb NOT NULL,
      report text, created_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (evaluation, configuration));
    CREATE TABLE IF NOT EXISTS ${S}.hosts (host_id text PRIMARY KEY, seen_at timestamptz NOT NULL);
    CREATE TABLE IF NOT EXISTS ${S}.holdings (
      host_id text NOT NULL, repo text NOT NULL, used_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (host_id, repo));
    SELECT pg_advisory_unlock(hashtext('${S}.migrate'));
  `);
}

export async function putBundle(db: Queryable, evaluation: string, body: string): Promise<void> {
  await db.query(`INSERT INTO ${S}.bundles (evaluation, body) VALUES ($1, $2)`, [evaluation, body]);
}

export async function getBundle(db: Queryable, evaluation: string): Promise<string | undefined> {
  const { rows } = await db.query(`SELECT body FROM ${S}.bundles WHERE evaluation = $1`, [evaluation]);
  return rows[0]?.body as string | undefined;
}

/** The evaluation is over: its secrets (clone URLs, hidden files) and bookkeeping go. */
export async function dropEvaluation(db: Queryable, evaluation: string): Promise<void> {
  for (const table of ['bundles', 'claims', 'results'])
    await db.query(`DELETE FROM ${S}.${table} WHERE evaluation = $1`, [evaluation]);
}

/**
 * Rows an App left behind (it stopped mid-evaluation, or a worker answered after the end): gone
 * after a day, so no bundle's token or hidden file outlives its use for long.
 */
export async function pruneWorkerRows(db: Queryable): Promise<void> {
  await db.query(`DELETE FROM ${S}.bundles WHERE created_at < now() - interval '1 day'`);
  await db.query(`DELETE FROM ${S}.results WHERE created_at < now() - interval '1 day'`);
  await db.query(`DELETE FROM ${S}.claims WHERE lease_until < now() - interval '1 day'`);
}

/**
 * Takes the configuration for this job: free, its lease over (the holder died), or already this
 * job's (a retry of it). Undefined: another job holds it; `leaseUntil` says until when.
 */
export async function claimConfiguration(
  db: Queryable,
  c: { evaluation: string; configuration: string; jobId: string; hostId: string; leaseSeconds: number },
): Promise<{ claimed: true } | { claimed: false; leaseUntil: Date }> {
  const { rows } = await db.query(
    `INSERT INTO ${S}.claims AS c (evaluation, configuration, job_id, host_id, lease_until)
       VALUES ($1, $2, $3, $4, now() + $5 * interval '1 second')
     ON CONFLICT (evaluation, configuration) DO UPDATE
       SET job_id = EXCLUDED.job_id, host_id = EXCLUDED.host_id, lease_until = EXCLUDED.lease_until
       WHERE c.lease_until < now() OR c.job_id = EXCLUDED.job_id
     RETURNING job_id`,
    [c.evaluation, c.configuration, c.jobId, c.hostId, c.leaseSeconds],
  );
  if (rows.length > 0) return { claimed: true };
  const held = await db.query(
    `SELECT lease_until FROM ${S}.claims WHERE evaluation = $1 AND configuration = $2`,
    [c.evaluation, c.configuration],
  );
  return { claimed: false, leaseUntil: (held.rows[0]?.lease_until as Date | undefined) ?? new Date() };
}

export async function hasResult(db: Queryable, evaluation: string, configuration: string): Promise<boolean> {
  const { rows } = await db.query(`SELECT 1 FROM ${S}.results WHERE evaluation = $1 AND configuration = $2`, [
    evaluation,
    configuration,
  ]);
  return rows.length > 0;
}

/** Stores a configuration's outcome (the first one wins) and tells the App, in one transaction. */
export async function putResult(
  db: Queryable,
  r: { evaluation: string; configuration: string; outcome: object; report?: string },
): Promise<void> {
  await db.query(
    `WITH stored AS (
       INSERT INTO ${S}.results (evaluation, configuration, outcome, report) VALUES ($1, $2, $3, $4)
       ON CONFLICT DO NOTHING RETURNING evaluation)
     SELECT pg_notify('${RESULTS_CHANNEL}', $1::text) FROM stored`,
    [r.evaluation, r.configuration, JSON.stringify(r.outcome), r.report ?? null],
  );
}

export interface StoredResult {
  configuration: string;
  outcome: unknown;
  report: string | null;
  /** The report's size in bytes, measured by PostgreSQL before the App reads it. */
  reportBytes: number;
}

export async function resultsOf(
  db: Queryable,
  evaluation: string,
  maxBytes: number,
): Promise<StoredResult[]> {
  // A report over the cap is not even read: its size alone makes it an infrastructure error.
  const { rows } = await db.query(
    `SELECT configuration, outcome, octet_length(report) AS bytes,
            CASE WHEN octet_length(report) <= $2 THEN report END AS report
       FROM ${S}.results WHERE evaluation = $1`,
    [evaluation, maxBytes],
  );
  return rows.map((r) => ({
    configuration: r.configuration as string,
    outcome: r.outcome as unknown,
    report: (r.report as string | null) ?? null,
    reportBytes: Number(r.bytes ?? 0),
  }));
}

/** How often a running worker says it is alive (worker.ts). */
export const HEARTBEAT_SECONDS = 5;

/**
 * Claims of `evaluation` still without a result whose host has not beaten for `silentSeconds`
 * (killed, or cut off): released, so their configurations can run elsewhere now rather than when
 * the job's lease (the suite's longest run plus ten minutes) ends. Returns their configurations.
 * A host that was only slow may still answer: the first result stored wins, so it never counts twice.
 */
export async function releaseSilentClaims(
  db: Queryable,
  evaluation: string,
  silentSeconds: number,
): Promise<Array<{ configuration: string; hostId: string }>> {
  const { rows } = await db.query(
    `DELETE FROM ${S}.claims c
      WHERE c.evaluation = $1
        AND NOT EXISTS (SELECT 1 FROM ${S}.results r
                         WHERE r.evaluation = c.evaluation AND r.configuration = c.configuration)
        AND NOT EXISTS (SELECT 1 FROM ${S}.hosts h
                         WHERE h.host_id = c.host_id AND h.seen_at > now() - $2 * interval '1 second')
      RETURNING configuration, host_id`,
    [evaluation, silentSeconds],
  );
  return rows.map((r) => ({ configuration: r.configuration as string, hostId: r.host_id as string }));
}

export async function heartbeat(db: Queryable, hostId: string): Promise<void> {
  await db.query(
    `INSERT INTO ${S}.hosts (host_id, seen_at) VALUES ($1, now())
     ON CONFLICT (host_id) DO UPDATE SET seen_at = now()`,
    [hostId],
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
 * its mirrors, states and prepared dependencies make it the cheapest place to run them.
 */
export async function preferredHost(
  db: Queryable,
  repos: readonly string[],
  aliveSeconds: number,
): Promise<string | undefined> {
  const { rows } = await db.query(
    `SELECT h.host_id FROM ${S}.holdings h JOIN ${S}.hosts w USING (host_id)
      WHERE w.seen_at > now() - $2 * interval '1 second' AND h.repo = ANY($1::text[])
      GROUP BY h.host_id ORDER BY count(*) DESC, max(h.used_at) DESC LIMIT 1`,
    [repos.map(repoKey), aliveSeconds],
  );
  return rows[0]?.host_id as string | undefined;
}
