/**
 * The store's schema migrates: a SQLite file written by the schema before versioning (its DDL
 * below, as the App shipped it, with `user_version` 0 and the old state names) opens with its
 * data kept and its evaluations renamed into the state machine's words. On both backends, a
 * database at the previous version opens migrated with its rows, two stores opening one database
 * at once migrate it once, and a database from a newer Tandem is refused with a message naming it.
 */
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { openPostgres, shownUrl } from '../../src/app/store/postgres-driver.ts';
import { openSqlite } from '../../src/app/store/sqlite-driver.ts';
import { Store } from '../../src/app/store/store.ts';
import type { Driver } from '../../src/app/store/store-driver.ts';
import { migrate, SCHEMA_VERSION, schemaVersion } from '../../src/app/store/store-schema.ts';
import { POSTGRES_SCHEMA_VERSION } from '../../src/app/store/store-schema-postgres.ts';
import { STORE_BACKENDS, type StoreBackend, useTempStore } from './app-fixtures.ts';

/** The unversioned schema each table created for itself before `store-schema.ts`. */
const PREVIOUS_DDL = `
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

const SHA = 'b'.repeat(40);
const temp = useTempStore('tandem-migrate-');
let store: Store | undefined;

/** A database file as the previous App left it: two finished evaluations and one mid-run. */
function writePreviousDatabase(file: string): void {
  const db = new Database(file);
  db.exec(PREVIOUS_DDL);
  const now = Date.now();
  const evaluation = db.prepare(
    `INSERT INTO evaluations (set_key, seed, installation_id, state, matrix, members, created_at, updated_at)
     VALUES ('acme/api#1', 'acme/api#1', 7, ?, ?, ?, ?, ?)`,
  );
  evaluation.run('done', null, '[]', now, now);
  evaluation.run('cancelled', 'full', '[]', now, now);
  evaluation.run('running', null, JSON.stringify([{ key: 'acme/api#1', headSha: SHA }]), now, now);
  db.prepare(
    `INSERT INTO pulls VALUES ('acme/api#1', 'acme', 'api', 1, 7, 'open', ?, 'feature', 'main', ?)`,
  ).run(SHA, now);
  db.prepare(`INSERT INTO links VALUES ('acme/api#1', 'acme/schema#2', 'body')`).run();
  db.prepare(`INSERT INTO check_runs VALUES ('acme/api#1', ?, 555, 3, 0)`).run(SHA);
  db.prepare(`INSERT INTO deliveries VALUES ('d-1', 'pull_request', ?)`).run(now);
  db.close();
}

describe('SQLite schema from before versioning', () => {
  it('migrates a database from before versioning and keeps its data', async () => {
    const file = await temp.file();
    writePreviousDatabase(file);

    store = await temp.open();
    expect(await schemaVersion(store.db)).toBe(SCHEMA_VERSION);
    expect(await Promise.all([1, 2, 3].map((id) => store!.evaluations.stateOf(id)))).toEqual([
      'published',
      'superseded',
      'running',
    ]);
    expect((await store.evaluations.get(2))?.matrix).toBe('full');
    expect((await store.evaluations.unfinished()).map((e) => [e.id, e.members])).toEqual([
      [3, [{ key: 'acme/api#1', headSha: SHA }]],
    ]);
    expect(await store.pulls.get('acme/api#1')).toMatchObject({
      installationId: 7,
      headRef: 'feature',
      links: [{ owner: 'acme', repo: 'schema', number: 2 }],
    });
    expect(await store.checkRuns.byId(555)).toMatchObject({
      pullKey: 'acme/api#1',
      evaluationId: 3,
      completed: false,
    });
    expect(await store.deliveries.claim('d-1', 'pull_request')).toBe(false);
    // The migrated store works under the state machine: the interrupted evaluation resumes.
    await store.evaluations.requeue(3);
    await store.evaluations.start(3);
    await store.evaluations.publish(3);
    expect(await store.evaluations.unfinished()).toEqual([]);
    await store.close();

    // Opening again is a no-op: every migration ran once.
    store = await temp.open();
    expect(await store.evaluations.stateOf(1)).toBe('published');
    expect(await schemaVersion(store.db)).toBe(SCHEMA_VERSION);
  });
});

/** The driver under a store on `backend`, opened on its own (as another process would). */
function openDriver(backend: StoreBackend, target: string): Promise<Driver> {
  return backend === 'sqlite' ? openSqlite(target) : openPostgres(target);
}

describe.each(STORE_BACKENDS)('store schema on %s', (backend) => {
  const db = useTempStore('tandem-migrate-', backend);
  const current = backend === 'sqlite' ? SCHEMA_VERSION : POSTGRES_SCHEMA_VERSION;

  it('creates a new database at the current version', async () => {
    const s = await db.open();
    expect(await schemaVersion(s.db)).toBe(current);
    const id = await s.evaluations.create({
      setKey: 'a/b#1',
      seed: 'a/b#1',
      installationId: 1,
      matrix: null,
    });
    expect(await s.evaluations.stateOf(id)).toBe('queued');
  });

  it('migrates a database at the previous version and keeps its rows', async () => {
    const old = await openDriver(backend, await db.target());
    await migrate(old, current - 1);
    expect(await schemaVersion(old)).toBe(current - 1);
    const now = Date.now();
    await old.run(
      `INSERT INTO evaluations (set_key, seed, installation_id, state, matrix, members, created_at, updated_at)
       VALUES ('acme/api#1', 'acme/api#1', 7, 'published', NULL, ?, ?, ?)`,
      [JSON.stringify([{ key: 'acme/api#1', headSha: SHA }]), now, now],
    );
    await old.close();
    const s = await db.open();
    expect(await schemaVersion(s.db)).toBe(current);
    expect(await s.evaluations.lastPublished('acme/api#1')).toMatchObject({
      id: 1,
      installationId: 7,
      members: [{ key: 'acme/api#1', headSha: SHA }],
    });
  });

  it('two stores opening a new database at once migrate it once', async () => {
    const [a, b] = await Promise.all([db.open(), db.open()]);
    expect(await schemaVersion(a.db)).toBe(current);
    expect(await schemaVersion(b.db)).toBe(current);
  });

  it('refuses a database a newer Tandem wrote, naming it', async () => {
    const target = await db.target();
    const d = await openDriver(backend, target);
    if (backend === 'sqlite') await d.exec(`PRAGMA user_version = ${current + 1}`);
    else {
      await migrate(d);
      await d.run('UPDATE tandem_schema SET version = ?', [current + 1]);
    }
    await d.close();
    const shown = backend === 'sqlite' ? target : shownUrl(target);
    await expect(Store.open(target)).rejects.toThrow(
      `${shown} has schema version ${current + 1}, newer than this Tandem's (${current})`,
    );
  });
});
