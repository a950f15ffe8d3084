/**
 * A PostgreSQL database of the test's own on the shared server `scripts/start-postgres.sh` runs
 * (started idempotently here): created with a random name, dropped (its connections ended) after.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

export async function createTestDatabase(prefix = 't_wk'): Promise<TestDatabase> {
  const out = execFileSync('bash', [path.join(ROOT, 'scripts/start-postgres.sh')], { encoding: 'utf8' });
  const admin = out.trim().split('\n').pop() ?? '';
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  const run = async (sql: string) => {
    const c = new pg.Client({ connectionString: admin });
    await c.connect();
    try {
      await c.query(sql);
    } finally {
      await c.end();
    }
  };
  await run(`CREATE DATABASE ${name}`);
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return {
    url: url.href,
    drop: async () => {
      await run(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    },
  };
}
