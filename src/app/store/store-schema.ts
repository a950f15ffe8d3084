/**
 * The SQLite schema, versioned with `PRAGMA user_version`: migration N takes a database at
 * version N to N+1, inside one transaction with the version bump, so a crash mid-migration leaves
 * the old version to retry (and a second process opening the file at the same time waits for the
 * write lock, then finds the work done). A database from before versioning is at 0 and already
 * holds the version-1 tables (hence `IF NOT EXISTS` there). Add a migration, never edit one that
 * shipped; PostgreSQL has its own list (store-schema-postgres.ts), changed in step with this one.
 */
import { z } from 'zod';
import { newerSchema } from './newer-schema.ts';
import type { Driver, Queryable } from './store-driver.ts';
import { migratePostgres, postgresSchemaVersion } from './store-schema-postgres.ts';

const V1_TABLES = `
CREATE TABLE IF NOT EXISTS deliveries (id TEXT PRIMARY KEY, event TEXT NOT NULL, received_at INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS links (from_key TEXT NOT NULL, to_key TEXT NOT NULL, source TEXT NOT NULL,
  PRIMARY KEY (from_key, to_key, source));
CREATE INDEX IF NOT EXISTS links_to ON links (to_key);
CREATE TABLE IF NOT EXISTS unlinks (pair TEXT PRIMARY KEY);
CREATE TABLE IF NOT EXISTS pulls (
  key TEXT PRIMARY KEY, owner TEXT NOT NULL, repo TEXT NOT NULL, number INTEGER NOT NULL,
  installation_id INTEGER NOT NULL, state TEXT NOT NULL, head_sha TEXT NOT NULL, head_ref TEXT NOT NULL,
  base_ref TEXT NOT NULL, updated_at INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS evaluations (
  id INTEGER PRIMARY KEY AUTOINCREMENT, set_key TEXT NOT NULL, seed TEXT NOT NULL,
  installation_id INTEGER NOT NULL, state TEXT NOT NULL, matrix TEXT, members TEXT NOT NULL DEFAULT '[]',
  created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS check_runs (
  pull_key TEXT NOT NULL, head_sha TEXT NOT NULL, check_run_id INTEGER NOT NULL, evaluation_id INTEGER,
  completed INTEGER NOT NULL DEFAULT 0, PRIMARY KEY (pull_key, head_sha));
CREATE TABLE IF NOT EXISTS actions_handoffs (
  evaluation_id INTEGER PRIMARY KEY, evaluator TEXT NOT NULL, workflow TEXT NOT NULL, heads TEXT NOT NULL,
  dispatched_at INTEGER NOT NULL, run_id INTEGER, run_url TEXT, run_status TEXT, run_conclusion TEXT);
`;

/** `MIGRATIONS[n]` takes version n to n + 1. */
const MIGRATIONS: readonly string[] = [
  V1_TABLES,
  // The evaluation state machine's names: `done` was published, `cancelled` superseded. The
  // index serves the restart's scan for unfinished evaluations.
  `
      UPDATE evaluations SET state = CASE state WHEN 'done' THEN 'published' WHEN 'cancelled' THEN 'superseded'
        ELSE state END;
      CREATE INDEX evaluations_state ON evaluations (state);
    `,
  // `/tandem merge`: what an evaluation concluded and the merge order it used (a merge follows
  // both), and each merge attempt with its steps. At most one attempt runs per evaluation.
  `
      ALTER TABLE evaluations ADD COLUMN outcome TEXT;
      ALTER TABLE evaluations ADD COLUMN merge_order TEXT NOT NULL DEFAULT '[]';
      CREATE TABLE merges (
        id INTEGER PRIMARY KEY AUTOINCREMENT, evaluation_id INTEGER NOT NULL, requested_by TEXT NOT NULL,
        state TEXT NOT NULL, steps TEXT NOT NULL DEFAULT '[]', created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL);
      CREATE UNIQUE INDEX merges_running ON merges (evaluation_id) WHERE state = 'running';
    `,
  // Merge queue groups whose `Tandem` check is open, so a restart resumes them (store-merge-groups.ts).
  `
      CREATE TABLE merge_groups (
        key TEXT PRIMARY KEY, payload TEXT NOT NULL, check_run_id INTEGER, created_at INTEGER NOT NULL);
    `,
  // Consent and privacy of links (store-links.ts): who opened each PR and how visible its
  // repository is, who wrote each `/tandem link`, and who has write access where (a cache the
  // link index decides consent from; every evaluation checks GitHub afresh).
  `
      ALTER TABLE pulls ADD COLUMN author TEXT;
      ALTER TABLE pulls ADD COLUMN visibility TEXT;
      CREATE TABLE link_writers (from_key TEXT NOT NULL, to_key TEXT NOT NULL, login TEXT NOT NULL,
        PRIMARY KEY (from_key, to_key, login));
      CREATE TABLE writers (repo TEXT NOT NULL, login TEXT NOT NULL, writer INTEGER NOT NULL,
        checked_at INTEGER NOT NULL, PRIMARY KEY (repo, login));
    `,
  // A `Tandem` check about to be created, recorded before the call: a kill before its id is
  // stored leaves the intent, and the next process adopts the check from GitHub (store-check-runs.ts).
  `
      CREATE TABLE check_intents (
        pull_key TEXT NOT NULL, head_sha TEXT NOT NULL, created_at INTEGER NOT NULL,
        PRIMARY KEY (pull_key, head_sha));
    `,
  // A published result kept for reuse: a re-run on the same members and heads, with the same org
  // config and suite (the fingerprint), republishes it instead of running the executor again.
  `
      ALTER TABLE evaluations ADD COLUMN fingerprint TEXT;
      ALTER TABLE evaluations ADD COLUMN report TEXT;
      ALTER TABLE evaluations ADD COLUMN evaluated_at INTEGER;
    `,
  // Reverse-link search answers per PR (store-link-searches.ts): search is GitHub's scarcest
  // budget, and the webhook-fed index covers what was linked since.
  `
      CREATE TABLE link_searches (pull_key TEXT PRIMARY KEY, answer TEXT NOT NULL, searched_at INTEGER NOT NULL);
    `,
  // Where a PR's head branch lives: same-named branches group (`group_by_branch`) only when it is
  // the base repository itself, or the author writes there (`linking/branch-grouping.ts`).
  'ALTER TABLE pulls ADD COLUMN head_repo TEXT;',
  // Each member PR's sticky comment as state (store-comment-states.ts): every update re-renders
  // the whole comment from it instead of reading the posted Markdown back.
  `
      CREATE TABLE comment_states (pull_key TEXT PRIMARY KEY, state TEXT NOT NULL, updated_at INTEGER NOT NULL);
    `,
  // The linked-set merge queue (issue 28, store-set-queue.ts): the queue logic's state per
  // installation, the App's record of each item, each speculative evaluation (an evaluation left
  // running is run again after a restart), and each tested commit built, so a repository's
  // speculative state is built once and an item lands exactly the commit it was tested as.
  `
      CREATE TABLE set_queue (installation_id INTEGER PRIMARY KEY, state TEXT NOT NULL, updated_at INTEGER NOT NULL);
      CREATE TABLE queue_items (
        id TEXT PRIMARY KEY, installation_id INTEGER NOT NULL, seed TEXT NOT NULL, requested_by TEXT NOT NULL,
        members TEXT NOT NULL, status TEXT NOT NULL, check_runs TEXT NOT NULL DEFAULT '{}', reason TEXT,
        created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL);
      CREATE INDEX queue_items_status ON queue_items (status);
      CREATE TABLE queue_runs (
        item_id TEXT NOT NULL, ahead TEXT NOT NULL, attempt INTEGER NOT NULL, diagnostic TEXT NOT NULL,
        tested TEXT NOT NULL, state TEXT NOT NULL, result TEXT, created_at INTEGER NOT NULL,
        PRIMARY KEY (item_id, ahead, attempt, diagnostic));
      CREATE TABLE queue_commits (key TEXT PRIMARY KEY, sha TEXT NOT NULL, created_at INTEGER NOT NULL);
    `,
  // The last published evaluation of a set (a reuse's lookup, store-evaluations.ts) by index.
  'CREATE INDEX evaluations_set_state ON evaluations (set_key, state);',
  // Replicas on one database (store-leases.ts, store-pacing.ts): which replica owns an evaluation or
  // runs a set, and GitHub's secondary-limit windows counted per installation.
  `
      CREATE TABLE leases (name TEXT PRIMARY KEY, holder TEXT NOT NULL, expires_at INTEGER NOT NULL);
      CREATE TABLE pacing_buckets (bucket TEXT PRIMARY KEY, touched_at INTEGER NOT NULL);
      CREATE TABLE pacing_starts (bucket TEXT NOT NULL, started_at INTEGER NOT NULL);
      CREATE INDEX pacing_starts_bucket ON pacing_starts (bucket, started_at);
    `,
  // Replicas (issue 27): at most one queued evaluation per set, enforced by the database, so a
  // second request for the set reuses it whichever replica it reached (older duplicates a
  // previous version left are superseded first), and what it asked (`fresh`) stays with the row;
  // `/tandem merge` holds and the requests held
  // meanwhile as rows (store-merge-holds.ts).
  `
      UPDATE evaluations SET state = 'superseded' WHERE state = 'queued'
        AND id NOT IN (SELECT MAX(id) FROM evaluations WHERE state = 'queued' GROUP BY set_key);
      CREATE UNIQUE INDEX evaluations_one_queued ON evaluations (set_key) WHERE state = 'queued';
      ALTER TABLE evaluations ADD COLUMN fresh INTEGER NOT NULL DEFAULT 0;
      CREATE TABLE merge_holds (pull_key TEXT PRIMARY KEY, holder TEXT NOT NULL, expires_at INTEGER NOT NULL);
      CREATE TABLE held_requests (
        seed TEXT PRIMARY KEY, installation_id INTEGER NOT NULL, matrix TEXT, fresh INTEGER NOT NULL,
        held_at INTEGER NOT NULL);
    `,
];

export const SCHEMA_VERSION = MIGRATIONS.length;

async function sqliteVersion(q: Queryable): Promise<number> {
  const row = z.object({ user_version: z.number().int() }).parse(await q.get('PRAGMA user_version'));
  return row.user_version;
}

/** The schema version the database is at. */
export async function schemaVersion(db: Driver): Promise<number> {
  return db.dialect === 'sqlite' ? sqliteVersion(db) : postgresSchemaVersion(db);
}

/**
 * Brings the database to this Tandem's schema (up to `upTo`, which tests use to build an old
 * one); refuses a database a newer Tandem wrote.
 */
export async function migrate(db: Driver, upTo?: number): Promise<void> {
  if (db.dialect === 'postgres') return migratePostgres(db, upTo);
  const target = upTo ?? SCHEMA_VERSION;
  const from = await sqliteVersion(db);
  if (from > SCHEMA_VERSION) throw newerSchema(db.target, from, SCHEMA_VERSION);
  for (let v = from; v < target; v++) {
    await db.transaction(async (tx) => {
      // Read again under the write lock: another process may have migrated meanwhile.
      const now = await sqliteVersion(tx);
      if (now !== v) return;
      await tx.exec(MIGRATIONS[v]!);
      await tx.exec(`PRAGMA user_version = ${v + 1}`);
    });
  }
}
