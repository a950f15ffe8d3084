/**
 * The store's driver over PGlite (PostgreSQL compiled to WASM, in-process, data in one folder):
 * the embedded candidate measured against SQLite in perf/store-bench.ts. It runs the store's
 * PostgreSQL schema and SQL unchanged; only the benchmark uses it.
 */
import type { PGlite, Transaction } from '@electric-sql/pglite';
import { numberPlaceholders } from '../src/app/store/postgres-driver.ts';
import type { Driver, Queryable, RunResult, SqlValue } from '../src/app/store/store-driver.ts';

const INT8_OID = 20;

function queryable(db: PGlite | Transaction): Queryable {
  const query = (sql: string, params: readonly SqlValue[]) => db.query(numberPlaceholders(sql), [...params]);
  return {
    dialect: 'postgres',
    all: async (sql, params = []) => (await query(sql, params)).rows,
    get: async (sql, params = []) => (await query(sql, params)).rows[0],
    run: async (sql, params = []) => ({ changes: (await query(sql, params)).affectedRows ?? 0 }),
    exec: async (sql) => void (await db.exec(sql)),
  };
}

export async function openPglite(dir: string): Promise<Driver> {
  const { PGlite } = await import('@electric-sql/pglite');
  const db = await PGlite.create(dir, { parsers: { [INT8_OID]: (v: string) => Number(v) } });
  const q = queryable(db);
  return {
    dialect: 'postgres',
    target: dir,
    all: (sql: string, params?: readonly SqlValue[]) => q.all(sql, params),
    get: (sql: string, params?: readonly SqlValue[]) => q.get(sql, params),
    run: (sql: string, params?: readonly SqlValue[]): Promise<RunResult> => q.run(sql, params),
    exec: (sql: string) => q.exec(sql),
    transaction: <T>(fn: (tx: Queryable) => Promise<T>) => db.transaction((tx) => fn(queryable(tx))),
    close: () => db.close(),
  };
}
