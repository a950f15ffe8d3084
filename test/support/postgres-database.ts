/**
 * A PostgreSQL database of a test's own on the shared test server (scripts/start-postgres.sh,
 * which `npm test`'s pretest starts): `tandem_t_<random>`, created on demand and dropped after.
 * Never another test's or engineer's database: each name is fresh, and only it is dropped.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** The server's admin URL (the script prints it; `TANDEM_PG_ADMIN_URL` overrides). */
export const POSTGRES_ADMIN_URL =
  process.env.TANDEM_PG_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:54329/postgres';

export interface TestDatabase {
  /** `postgres://…/tandem_t_<random>`, for `Store.open` or `DATABASE_URL`. */
  url: string;
  name: string;
  /** Drops it, ending any connection still open to it. */
  drop(): Promise<void>;
}

async function admin<T>(fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
  try {
    await c.connect();
  } catch (e) {
    throw new Error(
      `the PostgreSQL test server at ${POSTGRES_ADMIN_URL} does not answer (${(e as Error).message}): start it with \`bash scripts/start-postgres.sh\` (npm test's pretest does)`,
    );
  }
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

export async function createTestDatabase(): Promise<TestDatabase> {
  const name = `tandem_t_${randomBytes(6).toString('hex')}`;
  await admin((c) => c.query(`CREATE DATABASE ${name}`));
  const url = new URL(POSTGRES_ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    drop: () => admin((c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(() => undefined),
  };
}
