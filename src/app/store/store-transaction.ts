/**
 * A driver bound to one open transaction (`Store.transaction`): the tables built over it run
 * their statements inside it, so what they write is committed together or not at all. A table
 * that opens a transaction of its own inside (a PR's upsert with its links, a delivery's claim)
 * gets a savepoint instead: its statements stay one step that is undone as a whole when it throws,
 * without ending the outer transaction.
 */
import type { Driver, Queryable, RunResult, SqlValue } from './store-driver.ts';

export class TransactionDriver implements Driver {
  private savepoints = 0;

  constructor(
    private readonly q: Queryable,
    readonly target: string,
  ) {}

  get dialect(): Driver['dialect'] {
    return this.q.dialect;
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

  async transaction<T>(fn: (tx: Queryable) => Promise<T>, _name?: string): Promise<T> {
    const name = `tandem_step_${++this.savepoints}`;
    await this.q.exec(`SAVEPOINT ${name}`);
    try {
      const out = await fn(this);
      await this.q.exec(`RELEASE SAVEPOINT ${name}`);
      return out;
    } catch (e) {
      await this.q.exec(`ROLLBACK TO SAVEPOINT ${name}`);
      await this.q.exec(`RELEASE SAVEPOINT ${name}`);
      throw e;
    }
  }

  async close(): Promise<void> {
    throw new Error('the store of a transaction ends with its transaction; close the Store it came from');
  }
}
