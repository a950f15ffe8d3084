/**
 * What the store's tables talk to: a small async driver with one SQL text for both backends.
 * Statements use `?` placeholders (the PostgreSQL driver numbers them `$1, $2…`); the few
 * places where the dialects differ (JSON, insertion order) ask `sql-dialect.ts`. Integers come
 * back as numbers on both (PostgreSQL's BIGINT is parsed; every id and millisecond time the App
 * stores is far below 2^53).
 */

export type Dialect = 'sqlite' | 'postgres';

export type SqlValue = string | number | null;

export interface RunResult {
  /** Rows inserted, updated or deleted. */
  changes: number;
}

/** The statements a driver runs: on its own connection, or inside a transaction (`tx`). */
export interface Queryable {
  readonly dialect: Dialect;
  all(sql: string, params?: readonly SqlValue[]): Promise<unknown[]>;
  /** The first row, or undefined. */
  get(sql: string, params?: readonly SqlValue[]): Promise<unknown>;
  run(sql: string, params?: readonly SqlValue[]): Promise<RunResult>;
  /** Several statements without parameters (migrations). */
  exec(sql: string): Promise<void>;
}

export interface Driver extends Queryable {
  /**
   * Runs `fn` in one transaction: committed when it resolves, rolled back when it throws. Use
   * `tx` inside, never the driver itself (on PostgreSQL that is another connection; on SQLite it
   * waits for the transaction to end). On PostgreSQL a transaction ended by a deadlock or a
   * serialization failure runs again whole, `fn` included (`conflict-retry.ts`; `name` is how a
   * conflict that keeps coming is reported); inside another transaction (a savepoint) it does
   * not, the outer one does.
   */
  transaction<T>(fn: (tx: Queryable) => Promise<T>, name?: string): Promise<T>;
  /** Where the data lives, for messages (a file path, or a URL without its password). */
  readonly target: string;
  close(): Promise<void>;
}

/**
 * The store cannot be opened for a reason its operator fixes (no server answers, credentials
 * refused, no such database, a driver not installed): `npm start` prints the message alone and
 * exits 1, as a configuration mistake rather than a bug's stack trace.
 */
export class StoreUnavailableError extends Error {
  override readonly name = 'StoreUnavailableError';
}
