/**
 * The `Tandem` check run of each PR head: its id, the evaluation that owns it, and whether it
 * was completed (open ones on old heads get closed when the head moves on). One per head: a
 * re-evaluation of the same head reopens it. Before a check is created its intent is recorded
 * (`intend`), and saving the id clears it: an intent left over is a check a killed process may
 * have created on GitHub without storing its id.
 */
import { z } from 'zod';
import type { Driver, Queryable } from './store-driver.ts';
import { flagColumn, rowReader } from './stored-row.ts';

const headSchema = z.object({ pullKey: z.string(), headSha: z.string() });
const checkRunSchema = headSchema.extend({
  checkRunId: z.number().int(),
  evaluationId: z.number().int().nullable(),
  completed: flagColumn,
});
export type StoredCheckRun = z.output<typeof checkRunSchema>;

/** Columns under their `StoredCheckRun` names. */
const COLUMNS = `pull_key AS "pullKey", head_sha AS "headSha", check_run_id AS "checkRunId",
  evaluation_id AS "evaluationId", completed`;

const checkRuns = rowReader('check_runs', ['pullKey', 'headSha'], checkRunSchema);
const intents = rowReader('check_intents', ['pullKey', 'headSha'], headSchema);

export class CheckRunsTable {
  constructor(private readonly db: Driver) {}

  /** Stores the head's check (open unless `completed`) and clears its intent, at once. */
  async save(c: Omit<StoredCheckRun, 'completed'> & { completed?: boolean }): Promise<void> {
    await this.db.transaction(async (tx) => {
      await tx.run(
        `INSERT INTO check_runs (pull_key, head_sha, check_run_id, evaluation_id, completed) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (pull_key, head_sha) DO UPDATE SET check_run_id = excluded.check_run_id,
           evaluation_id = excluded.evaluation_id, completed = excluded.completed`,
        [c.pullKey, c.headSha, c.checkRunId, c.evaluationId, c.completed ? 1 : 0],
      );
      await this.dropIntent(c.pullKey, c.headSha, tx);
    });
  }

  /** Records that a check for this head is about to be created (before the call to GitHub). */
  async intend(pullKey: string, headSha: string): Promise<void> {
    await this.db.run(
      'INSERT INTO check_intents (pull_key, head_sha, created_at) VALUES (?, ?, ?) ON CONFLICT (pull_key, head_sha) DO NOTHING',
      [pullKey, headSha, Date.now()],
    );
  }

  async hasIntent(pullKey: string, headSha: string): Promise<boolean> {
    const row = await this.db.get('SELECT 1 AS one FROM check_intents WHERE pull_key = ? AND head_sha = ?', [
      pullKey,
      headSha,
    ]);
    return row !== undefined;
  }

  /** Intents no stored id answered: checks a killed process may have created. */
  async intents(): Promise<Array<{ pullKey: string; headSha: string }>> {
    return intents.many(
      await this.db.all('SELECT pull_key AS "pullKey", head_sha AS "headSha" FROM check_intents'),
    );
  }

  async dropIntent(pullKey: string, headSha: string, q: Queryable = this.db): Promise<void> {
    await q.run('DELETE FROM check_intents WHERE pull_key = ? AND head_sha = ?', [pullKey, headSha]);
  }

  /** A completed check of a head taken up again by a re-evaluation of that head. */
  async reopen(pullKey: string, headSha: string, evaluationId: number | null): Promise<void> {
    await this.db.run(
      `UPDATE check_runs SET completed = 0, evaluation_id = COALESCE(?, evaluation_id)
       WHERE pull_key = ? AND head_sha = ?`,
      [evaluationId, pullKey, headSha],
    );
  }

  async get(pullKey: string, headSha: string): Promise<StoredCheckRun | undefined> {
    return checkRuns.one(
      await this.db.get(`SELECT ${COLUMNS} FROM check_runs WHERE pull_key = ? AND head_sha = ?`, [
        pullKey,
        headSha,
      ]),
    );
  }

  /** Open check runs of a PR (any head): the stale ones get closed when the head moves on. */
  async open(pullKey: string): Promise<StoredCheckRun[]> {
    return checkRuns.many(
      await this.db.all(`SELECT ${COLUMNS} FROM check_runs WHERE pull_key = ? AND completed = 0`, [pullKey]),
    );
  }

  async byId(id: number): Promise<StoredCheckRun | undefined> {
    return checkRuns.one(await this.db.get(`SELECT ${COLUMNS} FROM check_runs WHERE check_run_id = ?`, [id]));
  }

  async claim(pullKey: string, headSha: string, evaluationId: number): Promise<void> {
    await this.db.run('UPDATE check_runs SET evaluation_id = ? WHERE pull_key = ? AND head_sha = ?', [
      evaluationId,
      pullKey,
      headSha,
    ]);
  }

  async complete(pullKey: string, headSha: string): Promise<void> {
    await this.db.run('UPDATE check_runs SET completed = 1 WHERE pull_key = ? AND head_sha = ?', [
      pullKey,
      headSha,
    ]);
  }
}
