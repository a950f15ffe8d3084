/**
 * The `Tandem` check run of each PR head: its id, the evaluation that owns it, and whether it
 * was completed (open ones on old heads get closed when the head moves on). One per head: a
 * re-evaluation of the same head reopens it. Before a check is created its intent is recorded
 * (`intend`), and saving the id clears it: an intent left over is a check a killed process may
 * have created on GitHub without storing its id.
 */
import type Database from 'better-sqlite3';
import { z } from 'zod';
import { flagColumn, rowReader } from './stored-row.ts';

const headSchema = z.object({ pullKey: z.string(), headSha: z.string() });
const checkRunSchema = headSchema.extend({
  checkRunId: z.number().int(),
  evaluationId: z.number().int().nullable(),
  completed: flagColumn,
});
export type StoredCheckRun = z.output<typeof checkRunSchema>;

/** Columns under their `StoredCheckRun` names. */
const COLUMNS = `pull_key AS pullKey, head_sha AS headSha, check_run_id AS checkRunId,
  evaluation_id AS evaluationId, completed`;

const checkRuns = rowReader('check_runs', ['pullKey', 'headSha'], checkRunSchema);
const intents = rowReader('check_intents', ['pullKey', 'headSha'], headSchema);

export class CheckRunsTable {
  constructor(private readonly db: Database.Database) {}

  /** Stores the head's check (open unless `completed`) and clears its intent, at once. */
  save(c: Omit<StoredCheckRun, 'completed'> & { completed?: boolean }): void {
    this.db.transaction(() => {
      this.db
        .prepare(
          `INSERT INTO check_runs (pull_key, head_sha, check_run_id, evaluation_id, completed) VALUES (?, ?, ?, ?, ?)
           ON CONFLICT (pull_key, head_sha) DO UPDATE SET check_run_id = excluded.check_run_id,
             evaluation_id = excluded.evaluation_id, completed = excluded.completed`,
        )
        .run(c.pullKey, c.headSha, c.checkRunId, c.evaluationId, c.completed ? 1 : 0);
      this.dropIntent(c.pullKey, c.headSha);
    })();
  }

  /** Records that a check for this head is about to be created (before the call to GitHub). */
  intend(pullKey: string, headSha: string): void {
    this.db
      .prepare('INSERT OR IGNORE INTO check_intents (pull_key, head_sha, created_at) VALUES (?, ?, ?)')
      .run(pullKey, headSha, Date.now());
  }

  hasIntent(pullKey: string, headSha: string): boolean {
    const row = this.db
      .prepare('SELECT 1 FROM check_intents WHERE pull_key = ? AND head_sha = ?')
      .get(pullKey, headSha);
    return row !== undefined;
  }

  /** Intents no stored id answered: checks a killed process may have created. */
  intents(): Array<{ pullKey: string; headSha: string }> {
    return intents.many(
      this.db.prepare('SELECT pull_key AS pullKey, head_sha AS headSha FROM check_intents').all(),
    );
  }

  dropIntent(pullKey: string, headSha: string): void {
    this.db.prepare('DELETE FROM check_intents WHERE pull_key = ? AND head_sha = ?').run(pullKey, headSha);
  }

  /** A completed check of a head taken up again by a re-evaluation of that head. */
  reopen(pullKey: string, headSha: string, evaluationId: number | null): void {
    this.db
      .prepare(
        `UPDATE check_runs SET completed = 0, evaluation_id = COALESCE(?, evaluation_id)
         WHERE pull_key = ? AND head_sha = ?`,
      )
      .run(evaluationId, pullKey, headSha);
  }

  get(pullKey: string, headSha: string): StoredCheckRun | undefined {
    return checkRuns.one(
      this.db
        .prepare(`SELECT ${COLUMNS} FROM check_runs WHERE pull_key = ? AND head_sha = ?`)
        .get(pullKey, headSha),
    );
  }

  /** Open check runs of a PR (any head): the stale ones get closed when the head moves on. */
  open(pullKey: string): StoredCheckRun[] {
    return checkRuns.many(
      this.db.prepare(`SELECT ${COLUMNS} FROM check_runs WHERE pull_key = ? AND completed = 0`).all(pullKey),
    );
  }

  byId(id: number): StoredCheckRun | undefined {
    return checkRuns.one(this.db.prepare(`SELECT ${COLUMNS} FROM check_runs WHERE check_run_id = ?`).get(id));
  }

  claim(pullKey: string, headSha: string, evaluationId: number): void {
    this.db
      .prepare('UPDATE check_runs SET evaluation_id = ? WHERE pull_key = ? AND head_sha = ?')
      .run(evaluationId, pullKey, headSha);
  }

  complete(pullKey: string, headSha: string): void {
    this.db
      .prepare('UPDATE check_runs SET completed = 1 WHERE pull_key = ? AND head_sha = ?')
      .run(pullKey, headSha);
  }
}
