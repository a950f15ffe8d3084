/**
 * A transaction on a conflict with concurrent transactions (`store/conflict-retry.ts`): on
 * PostgreSQL a real deadlock (two transactions locking two rows in opposite order, each waiting
 * for the other's first lock by an event) ends one of them with SQLSTATE 40P01; it is run again
 * whole and both commit, each change once. A conflict that keeps coming is reported naming the
 * transaction; an ordinary error, and a conflict inside a savepoint, are not retried there.
 */
import { describe, expect, it } from 'vitest';
import { CONFLICT_ATTEMPTS, TransactionConflictError } from '../../src/app/store/conflict-retry.ts';
import type { PostgresDriver } from '../../src/app/store/postgres-driver.ts';
import type { Store } from '../../src/app/store/store.ts';
import { STORE_BACKENDS, useTempStore } from './app-fixtures.ts';

/** A promise and the function that resolves it. */
function signal(): { done: Promise<void>; fire: () => void } {
  let fire = () => {};
  const done = new Promise<void>((ok) => (fire = ok));
  return { done, fire };
}

async function probeTable(s: Store): Promise<void> {
  await s.db.exec('CREATE TABLE retry_probe (id INTEGER PRIMARY KEY, v INTEGER NOT NULL)');
  await s.db.run('INSERT INTO retry_probe (id, v) VALUES (1, 0), (2, 0)');
}

const bump = (tx: Store, id: number) => tx.db.run('UPDATE retry_probe SET v = v + 1 WHERE id = ?', [id]);

describe.each(STORE_BACKENDS)('Store.transaction on %s', (backend) => {
  const temp = useTempStore('tandem-tx-retry-', backend);

  it('runs a body that fails with an ordinary error once, committing nothing', async () => {
    const s = await temp.open();
    await probeTable(s);
    let runs = 0;
    await expect(
      s.transaction(async (tx) => {
        runs += 1;
        await bump(tx, 1);
        throw new Error('not a conflict');
      }, 'probe'),
    ).rejects.toThrow('not a conflict');
    expect(runs).toBe(1);
    expect(await s.db.get('SELECT v FROM retry_probe WHERE id = 1')).toEqual({ v: 0 });
  });

  if (backend !== 'postgres') return;

  it('runs again the transaction PostgreSQL ended by a real deadlock: both commit, each change once', async () => {
    const s = await temp.open();
    await probeTable(s);
    const retries: string[] = [];
    (s.db as PostgresDriver).onConflictRetry = (_attempt, code) => retries.push(code);
    const firstLocked = signal();
    const secondLocked = signal();
    const runs = { first: 0, second: 0 };
    // Each locks its own row, waits until the other has locked its one, then asks for it.
    const first = s.transaction(async (tx) => {
      runs.first += 1;
      await bump(tx, 1);
      firstLocked.fire();
      await secondLocked.done;
      await bump(tx, 2);
    }, 'first');
    const second = s.transaction(async (tx) => {
      runs.second += 1;
      await bump(tx, 2);
      secondLocked.fire();
      await firstLocked.done;
      await bump(tx, 1);
    }, 'second');
    await Promise.all([first, second]);
    expect(retries).toEqual(['40P01']);
    expect(runs.first + runs.second).toBe(3);
    expect(await s.db.all('SELECT id, v FROM retry_probe ORDER BY id')).toEqual([
      { id: 1, v: 2 },
      { id: 2, v: 2 },
    ]);
  });

  it('reports a conflict that keeps coming, naming the transaction, after a few attempts', async () => {
    const s = await temp.open();
    await probeTable(s);
    let runs = 0;
    const conflict = () => Object.assign(new Error('could not serialize access'), { code: '40001' });
    const failing = s.transaction(async (tx) => {
      runs += 1;
      await bump(tx, 1);
      throw conflict();
    }, 'record the probe');
    await expect(failing).rejects.toBeInstanceOf(TransactionConflictError);
    await expect(failing).rejects.toThrow(
      `the store transaction "record the probe" on ${s.db.target} conflicted with concurrent transactions ${CONFLICT_ATTEMPTS} times in a row (last: SQLSTATE 40001, could not serialize access)`,
    );
    expect(runs).toBe(CONFLICT_ATTEMPTS);
    expect(await s.db.get('SELECT v FROM retry_probe WHERE id = 1')).toEqual({ v: 0 });
  });

  it('does not retry inside a savepoint: the outer transaction runs again whole', async () => {
    const s = await temp.open();
    await probeTable(s);
    const runs = { outer: 0, inner: 0 };
    await s.transaction(async (tx) => {
      runs.outer += 1;
      await bump(tx, 1);
      await tx.transaction(async (inner) => {
        runs.inner += 1;
        await bump(inner, 2);
        if (runs.inner === 1) throw Object.assign(new Error('deadlock detected'), { code: '40P01' });
      }, 'inner');
    }, 'outer');
    expect(runs).toEqual({ outer: 2, inner: 2 });
    expect(await s.db.all('SELECT id, v FROM retry_probe ORDER BY id')).toEqual([
      { id: 1, v: 1 },
      { id: 2, v: 1 },
    ]);
  });
});
