/**
 * A real database error on demand: a trigger of the test's own that makes every `INSERT` or
 * `UPDATE` of one table fail while armed, on SQLite (`RAISE(ABORT)`) or PostgreSQL (a PL/pgSQL
 * `RAISE EXCEPTION`). The App's code runs unchanged; only the database refuses, as a full disk
 * or a lost connection would, at the statement that records the work.
 */
import type { Store } from '../../src/app/store/store.ts';

/** Arms the fault on `table` for `op` (armed at once); the returned function arms or disarms it. */
export async function armStoreFault(
  store: Store,
  table: string,
  op: 'INSERT' | 'UPDATE' = 'INSERT',
): Promise<(armed: boolean) => Promise<void>> {
  await store.db.exec('CREATE TABLE test_fault (armed INTEGER NOT NULL); INSERT INTO test_fault VALUES (1);');
  if (store.db.dialect === 'postgres')
    await store.db.exec(`CREATE FUNCTION test_fault() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN IF (SELECT armed FROM test_fault) = 1 THEN RAISE EXCEPTION 'injected fault'; END IF; RETURN NEW; END $$;
      CREATE TRIGGER test_fault BEFORE ${op} ON ${table} FOR EACH ROW EXECUTE FUNCTION test_fault();`);
  else
    await store.db.exec(`CREATE TRIGGER test_fault BEFORE ${op} ON ${table}
      WHEN (SELECT armed FROM test_fault) = 1 BEGIN SELECT RAISE(ABORT, 'injected fault'); END;`);
  return async (armed) => void (await store.db.run('UPDATE test_fault SET armed = ?', [armed ? 1 : 0]));
}
