/**
 * The embedded backend: one SQLite file through `better-sqlite3`, a native module only the App
 * needs (an optional dependency, loaded on first open so installing the CLI never builds it).
 * better-sqlite3 is synchronous; this driver gives it the store's async shape. Its one connection
 * is shared, so while a transaction is open (its body awaits between statements) every statement
 * from outside it waits for the end: nothing else's write lands inside it, or is rolled back
 * with it.
 */
import path from 'node:path';
import type Database from 'better-sqlite3';
import {
  type Driver,
  type Queryable,
  type RunResult,
  type SqlValue,
  StoreUnavailableError,
} from './store-driver.ts';

type DatabaseConstructor = typeof Database;

interface Gate {
  current: Promise<unknown> | undefined;
}
/** Per database file (resolved path), the gate its drivers in this process share. */
const gates = new Map<string, Gate>();

/** The driver module, or an error that says how to get it (it is optional in package.json). */
async function loadSqlite(): Promise<DatabaseConstructor> {
  try {
    return (await import('better-sqlite3')).default;
  } catch (e) {
    throw new StoreUnavailableError(
      `the Tandem GitHub App keeps its state in SQLite and needs the optional dependency better-sqlite3, which is not installed or did not build (${(e as Error).message}). Install it with \`npm install better-sqlite3\` (it needs a C++ toolchain when no prebuilt binary fits this platform), or set DATABASE_URL to a PostgreSQL server.`,
    );
  }
}

export async function openSqlite(file: string): Promise<SqliteDriver> {
  const Sqlite = await loadSqlite();
  return new SqliteDriver(new Sqlite(file), file);
}

export class SqliteDriver implements Driver {
  readonly dialect = 'sqlite' as const;
  /** Prepared statements by SQL text (the tables run the same few statements over and over). */
  private readonly statements = new Map<string, Database.Statement>();
  /**
   * The open transaction's end, while one is open, shared by every driver this process opened on
   * the same file: a second connection's BEGIN would otherwise wait synchronously for the lock
   * (busy_timeout) while the first transaction, on the same thread, could never finish. Each
   * method waits with `while (this.gate.current) await this.gate.current` inline: the check and
   * the statement after it run in one synchronous step, so a transaction begun in between is seen.
   */
  private readonly gate: Gate;
  /** Statements of the open transaction, which do not wait for it. */
  private readonly inside: Queryable;

  constructor(
    readonly db: Database.Database,
    readonly target: string,
  ) {
    const key = path.resolve(target);
    this.gate = gates.get(key) ?? { current: undefined };
    gates.set(key, this.gate);
    db.pragma('journal_mode = WAL');
    db.pragma('busy_timeout = 5000');
    // WAL + NORMAL: durable across an App crash (what restarts need), one fsync per checkpoint.
    db.pragma('synchronous = NORMAL');
    this.inside = {
      dialect: 'sqlite',
      all: async (sql, params = []) => this.statement(sql).all(...params),
      get: async (sql, params = []) => this.statement(sql).get(...params),
      run: async (sql, params = []) => this.runNow(sql, params),
      exec: async (sql) => void this.db.exec(sql),
    };
  }

  async all(sql: string, params: readonly SqlValue[] = []): Promise<unknown[]> {
    while (this.gate.current) await this.gate.current;
    return this.statement(sql).all(...params);
  }

  async get(sql: string, params: readonly SqlValue[] = []): Promise<unknown> {
    while (this.gate.current) await this.gate.current;
    return this.statement(sql).get(...params);
  }

  async run(sql: string, params: readonly SqlValue[] = []): Promise<RunResult> {
    while (this.gate.current) await this.gate.current;
    return this.runNow(sql, params);
  }

  async exec(sql: string): Promise<void> {
    while (this.gate.current) await this.gate.current;
    this.db.exec(sql);
  }

  async transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
    while (this.gate.current) await this.gate.current;
    // IMMEDIATE: take the write lock now, so another process's writer waits (busy_timeout)
    // instead of one of the two failing at its first write.
    this.db.exec('BEGIN IMMEDIATE');
    const body = (async () => {
      try {
        const out = await fn(this.inside);
        this.db.exec('COMMIT');
        return out;
      } catch (e) {
        if (this.db.inTransaction) this.db.exec('ROLLBACK');
        throw e;
      }
    })();
    const ended = body.then(
      () => undefined,
      () => undefined,
    );
    this.gate.current = ended;
    try {
      return await body;
    } finally {
      if (this.gate.current === ended) this.gate.current = undefined;
    }
  }

  async close(): Promise<void> {
    while (this.gate.current) await this.gate.current;
    if (this.db.open) this.db.close();
  }

  private runNow(sql: string, params: readonly SqlValue[]): RunResult {
    return { changes: this.statement(sql).run(...params).changes };
  }

  private statement(sql: string): Database.Statement {
    let s = this.statements.get(sql);
    if (!s) {
      s = this.db.prepare(sql);
      this.statements.set(sql, s);
    }
    return s;
  }
}
