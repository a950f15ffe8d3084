/**
 * Each member PR's sticky comment as state (core/comment-state.schema.ts): the last result with
 * the view it was rendered for, and what happened since. Every update re-renders the comment
 * from this row; nothing is read back from GitHub to compute it.
 */
import type Database from 'better-sqlite3';
import { type CommentState, commentStateSchema } from '../../core/comment-state.schema.ts';

export class CommentStatesTable {
  constructor(private readonly db: Database.Database) {}

  /**
   * The PR's comment state; undefined when Tandem never commented there, or the row does not
   * parse (another Tandem version wrote it): the next result then writes the comment whole.
   */
  get(pullKey: string): CommentState | undefined {
    const row = this.db.prepare('SELECT state FROM comment_states WHERE pull_key = ?').get(pullKey) as
      | { state: string }
      | undefined;
    if (!row) return undefined;
    try {
      const parsed = commentStateSchema.safeParse(JSON.parse(row.state));
      return parsed.success ? parsed.data : undefined;
    } catch {
      return undefined;
    }
  }

  put(pullKey: string, state: CommentState): void {
    this.db
      .prepare(
        'INSERT INTO comment_states (pull_key, state, updated_at) VALUES (?, ?, ?) ON CONFLICT (pull_key) DO UPDATE SET state = excluded.state, updated_at = excluded.updated_at',
      )
      .run(pullKey, JSON.stringify(state), Date.now());
  }
}
