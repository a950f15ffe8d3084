/**
 * test/support/postgres-database.ts sweeps the databases killed test runs left on the shared
 * server: one whose creating process is gone, one older than an hour; never one a live process
 * (a test file running in parallel) just made. Real PostgreSQL (scripts/start-postgres.sh).
 */
import { spawn } from 'node:child_process';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import {
  createTestDatabase,
  POSTGRES_ADMIN_URL,
  type TestDatabase,
  testDatabaseName,
} from '../support/postgres-database.ts';

async function admin(sql: string): Promise<pg.QueryResult> {
  const c = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
  await c.connect();
  try {
    return await c.query(sql);
  } finally {
    await c.end();
  }
}

const exists = async (name: string) =>
  (await admin(`SELECT 1 FROM pg_database WHERE datname = '${name}'`)).rowCount === 1;

/** The pid of a process that ran and is gone (waited for by its exit, not by time). */
function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '0'], { stdio: 'ignore' });
  return new Promise((resolve) => child.once('exit', () => resolve(child.pid!)));
}

const made: string[] = [];
let mine: TestDatabase | undefined;

afterAll(async () => {
  for (const name of made) await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await mine?.drop();
});

describe('test databases', () => {
  it("sweep a killed run's database and an hour-old one, never a live process's", async () => {
    const now = new Date();
    const orphan = testDatabaseName({ pid: await deadPid(), createdAt: now });
    const old = testDatabaseName({ pid: process.pid, createdAt: new Date(now.getTime() - 2 * 3600_000) });
    // A test file running beside this one: its process (this one) is alive and its database young.
    const parallel = testDatabaseName({ pid: process.pid, createdAt: now });
    for (const name of [orphan, old, parallel]) {
      await admin(`CREATE DATABASE ${name}`);
      made.push(name);
    }
    mine = await createTestDatabase();
    expect(mine.name).toMatch(new RegExp(`^tandem_t_\\d+_${process.pid}_[0-9a-z]+_[0-9a-f]+$`));
    expect(await exists(orphan)).toBe(false);
    expect(await exists(old)).toBe(false);
    expect(await exists(parallel)).toBe(true);
    expect(await exists(mine.name)).toBe(true);
  });
});
