/**
 * The shared backend: a PostgreSQL server named by a `postgres://` URL (`DATABASE_URL`), through
 * `pg`'s connection pool. `pg` is loaded on first open, so the CLI and the embedded App never
 * load it. A transaction checks one client out of the pool for its whole body, so its statements
 * are one transaction on one connection while other statements use other connections.
 */
import type { Pool, PoolClient } from 'pg';
import type { Driver, Queryable, RunResult, SqlValue } from './store-driver.ts';

/** PostgreSQL's BIGINT (int8): the store's ids and millisecond times, parsed as numbers. */
const INT8_OID = 20;

/** `?` placeholders as `$1, $2…`, leaving quoted text ('…', "…") alone. */
export function numberPlaceholders(sql: string): string {
  let n = 0;
  let out = '';
  let quote: string | undefined;
  for (const ch of sql) {
    if (quote) {
      if (ch === quote) quote = undefined;
    } else if (ch === "'" || ch === '"') quote = ch;
    else if (ch === '?') {
      out += `$${++n}`;
      continue;
    }
    out += ch;
  }
  return out;
}

/** The URL with its password masked, for messages. */
export function shownUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return 'the PostgreSQL URL (does not parse)';
  }
}

function queryable(client: Pool | PoolClient): Queryable {
  const query = (sql: string, params: readonly SqlValue[]) =>
    client.query({ text: numberPlaceholders(sql), values: [...params] });
  return {
    dialect: 'postgres',
    all: async (sql, params = []) => (await query(sql, params)).rows,
    get: async (sql, params = []) => (await query(sql, params)).rows[0],
    run: async (sql, params = []) => ({ changes: (await query(sql, params)).rowCount ?? 0 }),
    exec: async (sql) => void (await client.query(sql)),
  };
}

export async function openPostgres(url: string): Promise<PostgresDriver> {
  let pg: typeof import('pg')['default'];
  try {
    pg = (await import('pg')).default;
  } catch (e) {
    throw new Error(
      `DATABASE_URL names a PostgreSQL server, and the App needs the pg package to reach it (${(e as Error).message}): npm install pg`,
    );
  }
  const pool = new pg.Pool({
    connectionString: url,
    types: {
      getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
        oid === INT8_OID ? Number : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
    },
  });
  // An idle client losing its connection (a server restart) is reported here; the next query
  // takes a new connection, and a query that fails meanwhile fails as infrastructure trouble.
  pool.on('error', () => {});
  const driver = new PostgresDriver(pool, shownUrl(url));
  try {
    await driver.get('SELECT 1');
  } catch (e) {
    await pool.end();
    throw new Error(
      `cannot reach the App's PostgreSQL database at ${driver.target}: ${(e as Error).message}`,
    );
  }
  return driver;
}

export class PostgresDriver implements Driver {
  readonly dialect = 'postgres' as const;
  private readonly q: Queryable;

  constructor(
    private readonly pool: Pool,
    readonly target: string,
  ) {
    this.q = queryable(pool);
  }

  all(sql: string, params?: readonly SqlValue[]): Promise<unknown[]> {
    return this.q.all(sql, params);
  }

  get(sql: string, params?: readonly SqlValue[]): Promise<unknown> {
    return this.q.get(sql, params);
  }

  run(sql: string, params?: readonly SqlValue[]): Promise<RunResult> {
    return this.q.run(sql, params);
  }

  exec(sql: string): Promise<void> {
    return this.q.exec(sql);
  }

  async transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    let broken = false;
    try {
      await client.query('BEGIN');
      try {
        const out = await fn(queryable(client));
        await client.query('COMMIT');
        return out;
      } catch (e) {
        await client.query('ROLLBACK').catch(() => {
          broken = true;
        });
        throw e;
      }
    } finally {
      // A client whose rollback failed is in an unknown state: destroyed, not reused.
      client.release(broken);
    }
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}
