/**
 * The `Tandem` check run of each PR head: its id, the evaluation that owns it, and whether it
 * was completed (open ones on old heads get closed when the head moves on).
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

  save(c: Omit<StoredCheckRun, 'completed'>): void {
    this.db
      .prepare(
        `INSERT INTO check_runs (pull_key, head_sha, check_run_id, evaluation_id, completed) VALUES (?, ?, ?, ?, 0)
         ON CONFLICT (pull_key, head_sha) DO UPDATE SET check_run_id = excluded.check_run_id,
           evaluation_id = excluded.evaluation_id, completed = 0`,
      )
      .run(c.pullKey, c.headSha, c.checkRunId, c.evaluationId);
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
