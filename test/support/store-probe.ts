/**
 * What the App's end-to-end tests read of the store, or do to it, below its interface: every
 * evaluation's state in order, how many evaluations there are, a row damaged on purpose. The one
 * place tests touch the database itself, through the store's driver (the same SQL on SQLite and
 * PostgreSQL).
 */
import type { Store } from '../../src/app/store/store.ts';

/** Every evaluation's state, oldest first. */
export async function evaluationStates(store: Store): Promise<string[]> {
  const rows = (await store.db.all('SELECT state FROM evaluations ORDER BY id')) as Array<{ state: string }>;
  return rows.map((r) => r.state);
}

/** How many evaluations the store holds, whatever their state. */
export async function evaluationCount(store: Store): Promise<number> {
  return ((await store.db.get('SELECT COUNT(*) AS n FROM evaluations')) as { n: number }).n;
}

/** Overwrites evaluation `id`'s recorded members with `text` (not JSON: a damaged row). */
export async function damageEvaluationMembers(store: Store, id: number, text: string): Promise<void> {
  await store.db.run('UPDATE evaluations SET members = ? WHERE id = ?', [text, id]);
}
