/**
 * The shared backend: a PostgreSQL server named by a `postgres://` URL (`DATABASE_URL`), through
 * `pg`'s connection pool. `pg` is loaded on first open, so the CLI and the embedded App never
 * load it. A transaction checks one client out of the pool for its whole body, so its statements
 * are one transaction on one connection while other statements use other connections.
 */
import type { Pool, PoolClient } from 'pg';
import { retryOnConflict } from './conflict-retry.ts';
import { probePostgres, shownUrl } from './postgres-connect.ts';
import {
  type Driver,
  type Queryable,
  type RunResult,
  type SqlValue,
  StoreUnavailableError,
} from './store-driver.ts';

export { shownUrl };

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
    throw new StoreUnavailableError(
      `DATABASE_URL names a PostgreSQL server, and the App needs the pg package to reach it (${(e as Error).message}): npm install pg`,
    );
  }
  // One connection first, with a timeout: a wrong URL is reported before the App takes work.
  await probePostgres(pg, url);
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
  return new PostgresDriver(pool, shownUrl(url));
}

export class PostgresDriver implements Driver {
  readonly dialect = 'postgres' as const;
  private readonly q: Queryable;
  private closed = false;

  constructor(
    private readonly pool: Pool,
    readonly target: string,
  ) {
    this.q = queryable(pool);
  }

  /**
   * After `close`, every statement fails saying so, as SQLite's does ("not open"), rather than
   * with the pool's own wording: `/readyz` and the logs name the cause the same on both backends.
   */
  private open(): Queryable {
    if (this.closed) throw new Error(`the database connection is not open (${this.target} was closed)`);
    return this.q;
  }

  async all(sql: string, params?: readonly SqlValue[]): Promise<unknown[]> {
    return this.open().all(sql, params);
  }

  async get(sql: string, params?: readonly SqlValue[]): Promise<unknown> {
    return this.open().get(sql, params);
  }

  async run(sql: string, params?: readonly SqlValue[]): Promise<RunResult> {
    return this.open().run(sql, params);
  }

  async exec(sql: string): Promise<void> {
    return this.open().exec(sql);
  }

  /**
   * One transaction on one pooled connection. One that PostgreSQL ends in a deadlock or a
   * serialization failure is run again whole, `fn` included (`conflict-retry.ts`), and reported
   * under `name` when it keeps failing.
   */
  async transaction<T>(fn: (tx: Queryable) => Promise<T>, name = fn.name || 'unnamed'): Promise<T> {
    return await retryOnConflict(name, this.target, () => this.once(fn), this.onConflictRetry);
  }

  /** Hears each conflict `transaction` runs again (its attempt and SQLSTATE): tests count them. */
  onConflictRetry: ((attempt: number, code: string) => void) | undefined;

  private async once<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
    this.open();
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
    if (this.closed) return;
    this.closed = true;
    await this.pool.end();
  }
}
