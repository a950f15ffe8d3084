/**
 * What the App's end-to-end tests read of the store, or do to it, below its interface: every
 * evaluation's state in order, how many evaluations there are, a row damaged on purpose. The one
 * place tests touch the database itself, so a second backend (PostgreSQL, issue 27) re-implements
 * these three and nothing else.
 */
import type { Store } from '../../src/app/store/store.ts';

/** Every evaluation's state, oldest first. */
export async function evaluationStates(store: Store): Promise<string[]> {
  const rows = store.db.prepare('SELECT state FROM evaluations ORDER BY id').all() as Array<{
    state: string;
  }>;
  return rows.map((r) => r.state);
}

/** How many evaluations the store holds, whatever their state. */
export async function evaluationCount(store: Store): Promise<number> {
  return (store.db.prepare('SELECT COUNT(*) AS n FROM evaluations').get() as { n: number }).n;
}

/** Overwrites evaluation `id`'s recorded members with `text` (not JSON: a damaged row). */
export async function damageEvaluationMembers(store: Store, id: number, text: string): Promise<void> {
  store.db.prepare('UPDATE evaluations SET members = ? WHERE id = ?').run(text, id);
}
