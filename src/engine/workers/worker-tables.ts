/**
 * Tandem's own rows beside pg-boss's queues (schema `tandem_workers`): the evaluation bundles
 * (deleted when the evaluation ends), the configuration claims (worker-claims.ts reads and
 * writes them), the answers, the live workers
 * (heartbeats) and what each host holds (repositories it mirrored and prepared).
 *
 * A claim is the lease on a configuration: taken with a fresh token by the worker that runs it,
 * renewed by that worker's heartbeat while it runs, and free to take again only once stale (the
 * holder stopped, froze or lost its host). pg-boss's own job expiry cannot be renewed (pg-boss 10
 * has no keepalive), so it only decides when someone looks again; the claim decides who runs.
 * An answer is stored only under the claim's current token: a worker whose claim was taken over
 * (it froze, came back) stores nothing. The App believes a report only under the current token.
 * An answer is stored with a NOTIFY in the same transaction, so the App hears of it once visible.
 */
import { randomUUID } from 'node:crypto';
import type pg from 'pg';
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
    ALTER TABLE ${S}.claims ADD COLUMN IF NOT EXISTS token uuid;
    CREATE TABLE IF NOT EXISTS ${S}.answers (
      evaluation uuid NOT NULL, configuration text NOT NULL, token uuid NOT NULL,
      outcome jsonb NOT NULL, report text, created_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (evaluation, configuration, token));
    CREATE TABLE IF NOT EXISTS ${S}.hosts (host_id text PRIMARY KEY, seen_at timestamptz NOT NULL);
    ALTER TABLE ${S}.hosts ADD COLUMN IF NOT EXISTS slots integer NOT NULL DEFAULT 1;
    ALTER TABLE ${S}.bundles ADD COLUMN IF NOT EXISTS alive_until timestamptz NOT NULL DEFAULT now() + interval '1 minute';
    CREATE TABLE IF NOT EXISTS ${S}.holdings (
      host_id text NOT NULL, repo text NOT NULL, used_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (host_id, repo));
    SELECT pg_advisory_unlock(hashtext('${S}.migrate'));
  `);
}

/**
 * How long a bundle stays usable without its App renewing it (the App renews it every few
 * seconds while it waits for the answers): an App killed mid-evaluation stops renewing, so its
 * jobs are skipped and its bundle (clone URLs, hidden files) pruned within this, not after a day.
 */
export const BUNDLE_ALIVE_SECONDS = 30;

export async function putBundle(
  db: Queryable,
  evaluation: string,
  body: string,
  aliveSeconds = BUNDLE_ALIVE_SECONDS,
): Promise<void> {
  await db.query(
    `INSERT INTO ${S}.bundles (evaluation, body, alive_until)
       VALUES ($1, $2, now() + $3 * interval '1 second')`,
    [evaluation, body, aliveSeconds],
  );
}

/** The App still waits for this evaluation's answers: its bundle stays usable a while longer. */
export async function renewBundle(
  db: Queryable,
  evaluation: string,
  aliveSeconds = BUNDLE_ALIVE_SECONDS,
): Promise<void> {
  await db.query(
    `UPDATE ${S}.bundles SET alive_until = now() + $2 * interval '1 second' WHERE evaluation = $1`,
    [evaluation, aliveSeconds],
  );
}

/** The bundle of an evaluation its App still waits for (undefined: over, or its App is gone). */
export async function getBundle(db: Queryable, evaluation: string): Promise<string | undefined> {
  const { rows } = await db.query(
    `SELECT body FROM ${S}.bundles WHERE evaluation = $1 AND alive_until >= now()`,
    [evaluation],
  );
  return rows[0]?.body as string | undefined;
}

/**
 * Evaluations whose App stopped renewing their bundle (it was killed or lost its database):
 * their bundle, claims and answers go now. Returns how many.
 */
export async function pruneAbandoned(db: Queryable): Promise<number> {
  const { rows } = await db.query(
    `WITH gone AS (DELETE FROM ${S}.bundles WHERE alive_until < now() RETURNING evaluation),
          c AS (DELETE FROM ${S}.claims WHERE evaluation IN (SELECT evaluation FROM gone)),
          a AS (DELETE FROM ${S}.answers WHERE evaluation IN (SELECT evaluation FROM gone))
     SELECT count(*) AS n FROM gone`,
  );
  return Number(rows[0]?.n ?? 0);
}

/** The evaluation is over: its secrets (clone URLs, hidden files) and bookkeeping go. */
export async function dropEvaluation(db: Queryable, evaluation: string): Promise<void> {
  for (const table of ['bundles', 'claims', 'answers'])
    await db.query(`DELETE FROM ${S}.${table} WHERE evaluation = $1`, [evaluation]);
}

/**
 * Rows an App left behind (it stopped mid-evaluation, or a worker answered after the end): gone
 * after a day, so no bundle's token or hidden file outlives its use for long.
 */
export async function pruneWorkerRows(db: Queryable): Promise<void> {
  await db.query(`DELETE FROM ${S}.bundles WHERE created_at < now() - interval '1 day'`);
  await db.query(`DELETE FROM ${S}.answers WHERE created_at < now() - interval '1 day'`);
  await db.query(`DELETE FROM ${S}.claims WHERE lease_until < now() - interval '1 day'`);
}

/** True when the configuration has its answer: one under the current claim, or an infrastructure error. */
export async function hasResult(db: Queryable, evaluation: string, configuration: string): Promise<boolean> {
  const { rows } = await db.query(
    `SELECT 1 FROM ${S}.answers a LEFT JOIN ${S}.claims c USING (evaluation, configuration)
      WHERE a.evaluation = $1 AND a.configuration = $2
        AND (a.token = c.token OR a.outcome->>'kind' = 'infra') LIMIT 1`,
    [evaluation, configuration],
  );
  return rows.length > 0;
}

/**
 * Stores a configuration's answer under the claim `token` holds, and tells the App, in one
 * transaction. False: the claim is no longer this token's (nothing stored).
 */
export async function putResult(
  db: Queryable,
  r: { evaluation: string; configuration: string; token: string; outcome: object; report?: string },
): Promise<boolean> {
  const { rows } = await db.query(
    `WITH stored AS (
       INSERT INTO ${S}.answers (evaluation, configuration, token, outcome, report)
       SELECT evaluation, configuration, token, $4, $5 FROM ${S}.claims
        WHERE evaluation = $1 AND configuration = $2 AND token = $3
       ON CONFLICT DO NOTHING RETURNING evaluation)
     SELECT pg_notify('${RESULTS_CHANNEL}', $1::text) FROM stored`,
    [r.evaluation, r.configuration, r.token, JSON.stringify(r.outcome), r.report ?? null],
  );
  return rows.length > 0;
}

/**
 * The App's own answer for a configuration no worker could finish (every attempt lost its
 * worker): an infrastructure error, under a token of its own (never a claim's: it is no report).
 */
export async function putInfraResult(
  db: Queryable,
  r: { evaluation: string; configuration: string; outcome: object },
): Promise<void> {
  await db.query(
    `WITH stored AS (
       INSERT INTO ${S}.answers (evaluation, configuration, token, outcome) VALUES ($1, $2, $3, $4)
       RETURNING evaluation)
     SELECT pg_notify('${RESULTS_CHANNEL}', $1::text) FROM stored`,
    [r.evaluation, r.configuration, randomUUID(), JSON.stringify(r.outcome)],
  );
}

export interface StoredResult {
  configuration: string;
  /** Undefined when the outcome is over its cap (then not read). */
  outcome: unknown;
  outcomeBytes: number;
  report: string | null;
  /** The report's size in bytes, measured by PostgreSQL before the App reads it. */
  reportBytes: number;
  /** Stored under the configuration's current claim (by the worker that holds it). */
  bound: boolean;
  /** The token it was stored under: one answer's identity. */
  token: string;
}

/**
 * The answers of the evaluation, the oldest first, but those of `known` configurations (the App
 * has theirs: each NOTIFY would otherwise read every report again); what is over its cap is
 * measured, not read.
 */
export async function resultsOf(
  db: Queryable,
  evaluation: string,
  caps: { reportBytes: number; outcomeBytes: number },
  known: readonly string[] = [],
): Promise<StoredResult[]> {
  const { rows } = await db.query(
    `SELECT a.configuration, octet_length(a.report) AS bytes, octet_length(a.outcome::text) AS obytes,
            CASE WHEN octet_length(a.outcome::text) <= $3 THEN a.outcome END AS outcome,
            CASE WHEN octet_length(a.report) <= $2 THEN a.report END AS report,
            (a.token = c.token) IS TRUE AS bound, a.token
       FROM ${S}.answers a LEFT JOIN ${S}.claims c USING (evaluation, configuration)
      WHERE a.evaluation = $1 AND a.configuration <> ALL($4::text[]) ORDER BY a.created_at, a.token`,
    [evaluation, caps.reportBytes, caps.outcomeBytes, known],
  );
  return rows.map((r) => ({
    configuration: r.configuration as string,
    outcome: (r.outcome as unknown) ?? undefined,
    outcomeBytes: Number(r.obytes ?? 0),
    report: (r.report as string | null) ?? null,
    reportBytes: Number(r.bytes ?? 0),
    bound: r.bound === true,
    token: String(r.token),
  }));
}

// The hosts (heartbeats, slots, holdings) and the affinity that reads them.
export * from './worker-hosts.ts';
