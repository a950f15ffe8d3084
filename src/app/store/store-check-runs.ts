/**
 * The `Tandem` check run of each PR head: its id, the evaluation that owns it, and whether it
 * was completed (open ones on old heads get closed when the head moves on). One per head: a
 * re-evaluation of the same head reopens it. Before a check is created its intent is recorded
 * (`intend`), and saving the id clears it: an intent left over is a check a killed process may
 * have created on GitHub without storing its id.
 */
import type Database from 'better-sqlite3';

export interface StoredCheckRun {
  pullKey: string;
  headSha: string;
  checkRunId: number;
  evaluationId: number | null;
  completed: boolean;
}

/** Columns under their `StoredCheckRun` names: a row is one but for SQLite's integer boolean. */
const COLUMNS = `pull_key AS pullKey, head_sha AS headSha, check_run_id AS checkRunId,
  evaluation_id AS evaluationId, completed`;

type CheckRow = Omit<StoredCheckRun, 'completed'> & { completed: number };

const toCheckRun = ({ completed, ...row }: CheckRow): StoredCheckRun => ({
  ...row,
  completed: completed === 1,
});

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
    return this.db
      .prepare('SELECT pull_key AS pullKey, head_sha AS headSha FROM check_intents')
      .all() as Array<{ pullKey: string; headSha: string }>;
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
    const row = this.db
      .prepare(`SELECT ${COLUMNS} FROM check_runs WHERE pull_key = ? AND head_sha = ?`)
      .get(pullKey, headSha) as CheckRow | undefined;
    return row ? toCheckRun(row) : undefined;
  }

  /** Open check runs of a PR (any head): the stale ones get closed when the head moves on. */
  open(pullKey: string): StoredCheckRun[] {
    const rows = this.db
      .prepare(`SELECT ${COLUMNS} FROM check_runs WHERE pull_key = ? AND completed = 0`)
      .all(pullKey) as CheckRow[];
    return rows.map(toCheckRun);
  }

  byId(id: number): StoredCheckRun | undefined {
    const row = this.db.prepare(`SELECT ${COLUMNS} FROM check_runs WHERE check_run_id = ?`).get(id) as
      | CheckRow
      | undefined;
    return row ? toCheckRun(row) : undefined;
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
