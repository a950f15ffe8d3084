/**
 * A corrupt row in the App's database (a bad JSON column, a state name no Tandem wrote, a
 * value out of its column's range) is refused when read, with an error naming the table, the
 * column and the row: never returned as if it were data. On both backends, with a real database;
 * the damage is done with SQL statements on a store of its own, as a hand edit or another
 * Tandem version would leave it.
 */
import { describe, expect, it } from 'vitest';
import { runningEvaluation, STORE_BACKENDS, useTempStore } from './app-fixtures.ts';

const SHA = 'c'.repeat(40);

describe.each(STORE_BACKENDS)('App store on %s: corrupt rows', (backend) => {
  const temp = useTempStore('tandem-corrupt-', backend);

  /** A store with one row in each table the damage below reaches, closed again. */
  async function seeded(): Promise<void> {
    const s = await temp.open();
    await s.pulls.upsert({
      owner: 'acme',
      repo: 'api',
      number: 1,
      installationId: 3,
      state: 'open',
      headSha: SHA,
      headRef: 'feature',
      baseRef: 'main',
      links: [{ owner: 'acme', repo: 'schema', number: 1 }],
    });
    const id = await runningEvaluation(s, ['acme/api#1'], { headSha: SHA });
    await s.checkRuns.save({ pullKey: 'acme/api#1', headSha: SHA, checkRunId: 7, evaluationId: id });
    await s.handoffs.save({
      evaluationId: id,
      evaluator: 'acme/tandem-suites',
      workflow: 'tandem.yml',
      heads: ['x'],
      dispatchedAt: Date.now(),
    });
    await s.linkSearches.record('acme/api#1', ['acme/web#2']);
    await s.close();
  }

  /** Runs `sql` on the database behind the App's back. */
  async function damage(sql: string): Promise<void> {
    const s = await temp.open();
    await s.db.exec(sql);
    await s.close();
  }

  async function thrown(read: () => Promise<unknown>): Promise<Error> {
    try {
      await read();
    } catch (e) {
      return e as Error;
    }
    throw new Error('the read did not throw');
  }

  it('a members column that is not JSON names evaluations, members and the row id', async () => {
    await seeded();
    await damage(`UPDATE evaluations SET members = '[{"key": "acme/api#1",' WHERE id = 1`);
    const s = await temp.open();
    const e = await thrown(() => s.evaluations.get(1));
    expect(e.name).toBe('CorruptRowError');
    expect(e.message).toMatch(
      /^the App's database holds a corrupt row: table evaluations, column members, row 1: not valid JSON/,
    );
    // The restart's scan meets the same row and says the same, instead of re-queueing garbage.
    await expect(s.evaluations.unfinished()).rejects.toThrow('table evaluations, column members, row 1');
  });

  it('a state name no Tandem wrote is refused, with the text it found', async () => {
    await seeded();
    await damage(`UPDATE evaluations SET state = 'exploded' WHERE id = 1`);
    const s = await temp.open();
    await expect(s.evaluations.get(1)).rejects.toThrow(
      /table evaluations, column state, row 1: .*\(found "exploded"\)/,
    );
  });

  it('pulls, check runs, hand-offs and link searches name their own table, column and row', async () => {
    await seeded();
    await damage(`
      UPDATE pulls SET state = 'reopened' WHERE key = 'acme/api#1';
      UPDATE check_runs SET completed = 2;
      UPDATE actions_handoffs SET heads = '{"not": "a list"}';
      UPDATE link_searches SET answer = 'acme/web#2';
    `);
    const s = await temp.open();
    await expect(s.pulls.get('acme/api#1')).rejects.toThrow('table pulls, column state, row acme/api#1');
    await expect(s.checkRuns.get('acme/api#1', SHA)).rejects.toThrow(
      `table check_runs, column completed, row acme/api#1 ${SHA}`,
    );
    await expect(s.handoffs.get(1)).rejects.toThrow('table actions_handoffs, column heads, row 1');
    await expect(s.linkSearches.answer('acme/api#1', 0)).rejects.toThrow(
      'table link_searches, column answer, row acme/api#1: not valid JSON',
    );
  });

  it('rows that parse still read as before', async () => {
    await seeded();
    const s = await temp.open();
    expect((await s.evaluations.get(1))?.members).toEqual([{ key: 'acme/api#1', headSha: SHA }]);
    expect((await s.checkRuns.get('acme/api#1', SHA))?.completed).toBe(false);
    expect((await s.pulls.get('acme/api#1'))?.links).toEqual([{ owner: 'acme', repo: 'schema', number: 1 }]);
  });
});
