/**
 * The App's memory in one SQLite file: deliveries seen (redelivery does nothing twice), pull
 * requests and their links (the reverse-lookup index), manual link commands, evaluations (so a
 * restart re-queues what was queued or running) with their check runs, and sticky comment ids.
 */
import Database from 'better-sqlite3';
import { type PullRef, parsePullKey, pullKey } from '../core/link-parser.ts';

export type EvaluationState = 'queued' | 'running' | 'done' | 'failed' | 'cancelled';

export interface StoredPull {
  key: string;
  owner: string;
  repo: string;
  number: number;
  installationId: number;
  state: 'open' | 'closed' | 'merged';
  headSha: string;
  headRef: string;
  baseRef: string;
  links: PullRef[];
}

export interface StoredEvaluation {
  id: number;
  setKey: string;
  seed: string;
  installationId: number;
  state: EvaluationState;
  matrix: string | null;
  members: Array<{ key: string; headSha: string }>;
}

export interface StoredCheckRun {
  pullKey: string;
  headSha: string;
  checkRunId: number;
  evaluationId: number | null;
  completed: boolean;
}

const SCHEMA = `
CREATE TABLE IF NOT EXISTS deliveries (id TEXT PRIMARY KEY, event TEXT NOT NULL, received_at INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS pulls (
  key TEXT PRIMARY KEY, owner TEXT NOT NULL, repo TEXT NOT NULL, number INTEGER NOT NULL,
  installation_id INTEGER NOT NULL, state TEXT NOT NULL, head_sha TEXT NOT NULL, head_ref TEXT NOT NULL,
  base_ref TEXT NOT NULL, updated_at INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS links (from_key TEXT NOT NULL, to_key TEXT NOT NULL, source TEXT NOT NULL,
  PRIMARY KEY (from_key, to_key, source));
CREATE INDEX IF NOT EXISTS links_to ON links (to_key);
CREATE TABLE IF NOT EXISTS unlinks (pair TEXT PRIMARY KEY);
CREATE TABLE IF NOT EXISTS evaluations (
  id INTEGER PRIMARY KEY AUTOINCREMENT, set_key TEXT NOT NULL, seed TEXT NOT NULL,
  installation_id INTEGER NOT NULL, state TEXT NOT NULL, matrix TEXT, members TEXT NOT NULL DEFAULT '[]',
  created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS check_runs (
  pull_key TEXT NOT NULL, head_sha TEXT NOT NULL, check_run_id INTEGER NOT NULL, evaluation_id INTEGER,
  completed INTEGER NOT NULL DEFAULT 0, PRIMARY KEY (pull_key, head_sha));
CREATE TABLE IF NOT EXISTS comments (pull_key TEXT PRIMARY KEY, comment_id INTEGER NOT NULL, body_hash TEXT NOT NULL);
`;

export class Store {
  readonly db: Database.Database;

  constructor(file: string) {
    this.db = new Database(file);
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('busy_timeout = 5000');
    // WAL + NORMAL: durable across an App crash (what restarts need), one fsync per checkpoint.
    this.db.pragma('synchronous = NORMAL');
    this.db.exec(SCHEMA);
  }

  close(): void {
    this.db.close();
  }

  /** True the first time a delivery id is seen; false for a redelivery. */
  claimDelivery(id: string, event: string): boolean {
    const r = this.db
      .prepare('INSERT OR IGNORE INTO deliveries (id, event, received_at) VALUES (?, ?, ?)')
      .run(id, event, Date.now());
    return r.changes === 1;
  }

  pruneDeliveries(olderThanMs: number): void {
    this.db.prepare('DELETE FROM deliveries WHERE received_at < ?').run(Date.now() - olderThanMs);
  }

  /** Records a PR and replaces the links its title and body make. */
  upsertPull(pull: Omit<StoredPull, 'key'>): StoredPull {
    const key = pullKey(pull);
    const tx = this.db.transaction(() => {
      this.db
        .prepare(
          `INSERT INTO pulls (key, owner, repo, number, installation_id, state, head_sha, head_ref, base_ref, updated_at)
           VALUES (@key, @owner, @repo, @number, @installationId, @state, @headSha, @headRef, @baseRef, @now)
           ON CONFLICT (key) DO UPDATE SET installation_id = excluded.installation_id, state = excluded.state,
             head_sha = excluded.head_sha, head_ref = excluded.head_ref, base_ref = excluded.base_ref,
             updated_at = excluded.updated_at`,
        )
        .run({ ...pull, key, now: Date.now() });
      this.db.prepare(`DELETE FROM links WHERE from_key = ? AND source = 'body'`).run(key);
      const insert = this.db.prepare(
        `INSERT OR IGNORE INTO links (from_key, to_key, source) VALUES (?, ?, 'body')`,
      );
      for (const l of pull.links) insert.run(key, pullKey(l));
    });
    tx();
    return { ...pull, key };
  }

  getPull(key: string): StoredPull | undefined {
    const row = this.db.prepare('SELECT * FROM pulls WHERE key = ?').get(key) as PullRow | undefined;
    return row ? this.toPull(row) : undefined;
  }

  /** Open PRs of an installation with this head branch name (opt-in grouping). */
  pullsWithHeadRef(installationId: number, headRef: string): StoredPull[] {
    const rows = this.db
      .prepare(`SELECT * FROM pulls WHERE installation_id = ? AND head_ref = ? AND state = 'open'`)
      .all(installationId, headRef) as PullRow[];
    return rows.map((r) => this.toPull(r));
  }

  /** Every link from a PR (body and `/tandem link`), as references. */
  linksFrom(key: string): PullRef[] {
    const rows = this.db.prepare('SELECT DISTINCT to_key FROM links WHERE from_key = ?').all(key) as Array<{
      to_key: string;
    }>;
    return rows.map((r) => parsePullKey(r.to_key));
  }

  /** Reverse lookup: PRs that link to this one. */
  linksTo(key: string): string[] {
    const rows = this.db.prepare('SELECT DISTINCT from_key FROM links WHERE to_key = ?').all(key) as Array<{
      from_key: string;
    }>;
    return rows.map((r) => r.from_key);
  }

  addManualLink(from: string, to: string, pair: string): void {
    this.db
      .prepare(`INSERT OR IGNORE INTO links (from_key, to_key, source) VALUES (?, ?, 'command')`)
      .run(from, to);
    this.db.prepare('DELETE FROM unlinks WHERE pair = ?').run(pair);
  }

  removeLink(from: string, to: string, pair: string): void {
    this.db
      .prepare(`DELETE FROM links WHERE from_key = ? AND to_key = ? AND source = 'command'`)
      .run(from, to);
    this.db
      .prepare(`DELETE FROM links WHERE from_key = ? AND to_key = ? AND source = 'command'`)
      .run(to, from);
    this.db.prepare('INSERT OR IGNORE INTO unlinks (pair) VALUES (?)').run(pair);
  }

  unlinkedPairs(): Set<string> {
    const rows = this.db.prepare('SELECT pair FROM unlinks').all() as Array<{ pair: string }>;
    return new Set(rows.map((r) => r.pair));
  }

  createEvaluation(e: {
    setKey: string;
    seed: string;
    installationId: number;
    matrix: string | null;
  }): number {
    const now = Date.now();
    const r = this.db
      .prepare(
        `INSERT INTO evaluations (set_key, seed, installation_id, state, matrix, created_at, updated_at)
         VALUES (?, ?, ?, 'queued', ?, ?, ?)`,
      )
      .run(e.setKey, e.seed, e.installationId, e.matrix, now, now);
    return Number(r.lastInsertRowid);
  }

  setEvaluationState(id: number, state: EvaluationState, members?: StoredEvaluation['members']): void {
    if (members) {
      this.db
        .prepare('UPDATE evaluations SET state = ?, members = ?, updated_at = ? WHERE id = ?')
        .run(state, JSON.stringify(members), Date.now(), id);
    } else {
      this.db
        .prepare('UPDATE evaluations SET state = ?, updated_at = ? WHERE id = ?')
        .run(state, Date.now(), id);
    }
  }

  getEvaluation(id: number): StoredEvaluation | undefined {
    const row = this.db.prepare('SELECT * FROM evaluations WHERE id = ?').get(id) as EvalRow | undefined;
    return row ? toEvaluation(row) : undefined;
  }

  /** Evaluations a previous process left queued or running. */
  unfinishedEvaluations(): StoredEvaluation[] {
    const rows = this.db
      .prepare(`SELECT * FROM evaluations WHERE state IN ('queued', 'running') ORDER BY id`)
      .all() as EvalRow[];
    return rows.map(toEvaluation);
  }

  saveCheckRun(c: Omit<StoredCheckRun, 'completed'>): void {
    this.db
      .prepare(
        `INSERT INTO check_runs (pull_key, head_sha, check_run_id, evaluation_id, completed) VALUES (?, ?, ?, ?, 0)
         ON CONFLICT (pull_key, head_sha) DO UPDATE SET check_run_id = excluded.check_run_id,
           evaluation_id = excluded.evaluation_id, completed = 0`,
      )
      .run(c.pullKey, c.headSha, c.checkRunId, c.evaluationId);
  }

  getCheckRun(pullKey: string, headSha: string): StoredCheckRun | undefined {
    const row = this.db
      .prepare('SELECT * FROM check_runs WHERE pull_key = ? AND head_sha = ?')
      .get(pullKey, headSha) as CheckRow | undefined;
    return row ? toCheckRun(row) : undefined;
  }

  /** Open check runs of a PR (any head): the stale ones get closed when the head moves on. */
  openCheckRuns(pullKey: string): StoredCheckRun[] {
    const rows = this.db
      .prepare('SELECT * FROM check_runs WHERE pull_key = ? AND completed = 0')
      .all(pullKey) as CheckRow[];
    return rows.map(toCheckRun);
  }

  checkRunById(id: number): StoredCheckRun | undefined {
    const row = this.db.prepare('SELECT * FROM check_runs WHERE check_run_id = ?').get(id) as
      | CheckRow
      | undefined;
    return row ? toCheckRun(row) : undefined;
  }

  claimCheckRun(pullKey: string, headSha: string, evaluationId: number): void {
    this.db
      .prepare('UPDATE check_runs SET evaluation_id = ? WHERE pull_key = ? AND head_sha = ?')
      .run(evaluationId, pullKey, headSha);
  }

  completeCheckRun(pullKey: string, headSha: string): void {
    this.db
      .prepare('UPDATE check_runs SET completed = 1 WHERE pull_key = ? AND head_sha = ?')
      .run(pullKey, headSha);
  }

  getComment(pullKey: string): { commentId: number; bodyHash: string } | undefined {
    const row = this.db
      .prepare('SELECT comment_id, body_hash FROM comments WHERE pull_key = ?')
      .get(pullKey) as { comment_id: number; body_hash: string } | undefined;
    return row ? { commentId: row.comment_id, bodyHash: row.body_hash } : undefined;
  }

  saveComment(pullKey: string, commentId: number, bodyHash: string): void {
    this.db
      .prepare(
        `INSERT INTO comments (pull_key, comment_id, body_hash) VALUES (?, ?, ?)
         ON CONFLICT (pull_key) DO UPDATE SET comment_id = excluded.comment_id, body_hash = excluded.body_hash`,
      )
      .run(pullKey, commentId, bodyHash);
  }

  private toPull(row: PullRow): StoredPull {
    return {
      key: row.key,
      owner: row.owner,
      repo: row.repo,
      number: row.number,
      installationId: row.installation_id,
      state: row.state as StoredPull['state'],
      headSha: row.head_sha,
      headRef: row.head_ref,
      baseRef: row.base_ref,
      links: this.linksFrom(row.key),
    };
  }
}

interface PullRow {
  key: string;
  owner: string;
  repo: string;
  number: number;
  installation_id: number;
  state: string;
  head_sha: string;
  head_ref: string;
  base_ref: string;
}

interface EvalRow {
  id: number;
  set_key: string;
  seed: string;
  installation_id: number;
  state: string;
  matrix: string | null;
  members: string;
}

interface CheckRow {
  pull_key: string;
  head_sha: string;
  check_run_id: number;
  evaluation_id: number | null;
  completed: number;
}

function toEvaluation(row: EvalRow): StoredEvaluation {
  return {
    id: row.id,
    setKey: row.set_key,
    seed: row.seed,
    installationId: row.installation_id,
    state: row.state as EvaluationState,
    matrix: row.matrix,
    members: JSON.parse(row.members) as StoredEvaluation['members'],
  };
}

function toCheckRun(row: CheckRow): StoredCheckRun {
  return {
    pullKey: row.pull_key,
    headSha: row.head_sha,
    checkRunId: row.check_run_id,
    evaluationId: row.evaluation_id,
    completed: row.completed === 1,
  };
}
