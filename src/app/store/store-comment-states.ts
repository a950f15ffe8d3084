/**
 * Each member PR's sticky comment as state (core/comment-state.schema.ts): the last result with
 * the view it was rendered for, and what happened since. Every update re-renders the comment
 * from this row; nothing is read back from GitHub to compute it.
 */
import { type CommentState, commentStateSchema } from '../../core/comment-state.schema.ts';
import type { Driver } from './store-driver.ts';

export class CommentStatesTable {
  constructor(private readonly db: Driver) {}

  /**
   * The PR's comment state; undefined when Tandem never commented there, or the row does not
   * parse (another Tandem version wrote it): the next result then writes the comment whole.
   */
  async get(pullKey: string): Promise<CommentState | undefined> {
    const row = (await this.db.get('SELECT state FROM comment_states WHERE pull_key = ?', [pullKey])) as
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

  async put(pullKey: string, state: CommentState): Promise<void> {
    await this.db.run(
      'INSERT INTO comment_states (pull_key, state, updated_at) VALUES (?, ?, ?) ON CONFLICT (pull_key) DO UPDATE SET state = excluded.state, updated_at = excluded.updated_at',
      [pullKey, JSON.stringify(state), Date.now()],
    );
  }
}
