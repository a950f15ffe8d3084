/**
 * Each member PR's sticky comment as state (core/comment-state.schema.ts): the last result with
 * the view it was rendered for, and what happened since. Every update re-renders the comment
 * from this row; nothing is read back from GitHub to compute it.
 *
 * Across App replicas an update (`edit`: read the row, step it, store it, write the comment on
 * GitHub) is done under a lease on the PR (`comment:<PR>`), so two replicas never both find "no
 * comment yet" and create two, nor interleave their edits. The row also keeps the newest
 * evaluation that wrote it (`writtenBy`, beside the state in the same JSON): an older
 * evaluation's update arriving late is dropped instead of replacing a newer one's comment.
 */
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { type CommentState, commentStateSchema } from '../../core/comment-state.schema.ts';
import { underLease } from './lease-section.ts';
import type { Driver } from './store-driver.ts';
import { LeasesTable } from './store-leases.ts';

/** The evaluation that last wrote the row, kept beside the state's own fields. */
const writtenBySchema = z.object({ writtenBy: z.number().int().optional() });

export interface CommentEdit {
  /** The evaluation this update comes from; an older one than the row's is not applied. */
  evaluationId?: number | undefined;
}

export class CommentStatesTable {
  /** The leases the edits hold (`comment:<PR>`). */
  readonly leases: LeasesTable;
  /** This store's name in those leases: edits of one PR from two replicas wait for each other. */
  private readonly holder = `comments-${randomUUID()}`;

  constructor(private readonly db: Driver) {
    this.leases = new LeasesTable(db);
  }

  /**
   * The PR's comment state; undefined when Tandem never commented there, or the row does not
   * parse (another Tandem version wrote it): the next result then writes the comment whole.
   */
  async get(pullKey: string): Promise<CommentState | undefined> {
    return (await this.read(pullKey)).state;
  }

  /**
   * One update of the PR's comment, under its lease: the state after `step` is stored and then
   * `write` puts it on GitHub. Nothing is stored or written (false) when `step` changes nothing,
   * or when the row was written by a newer evaluation than `edit.evaluationId`.
   */
  async edit(
    pullKey: string,
    step: (state: CommentState | undefined) => CommentState | undefined,
    write: (state: CommentState) => Promise<unknown>,
    edit: CommentEdit = {},
  ): Promise<boolean> {
    return underLease(this.leases, `comment:${pullKey}`, this.holder, async () => {
      const { state: before, writtenBy } = await this.read(pullKey);
      const by = edit.evaluationId;
      if (by !== undefined && writtenBy !== undefined && writtenBy > by) return false;
      const after = step(before);
      if (after === undefined || after === before) return false;
      await this.put(pullKey, after, Math.max(by ?? 0, writtenBy ?? 0) || undefined);
      await write(after);
      return true;
    });
  }

  async put(pullKey: string, state: CommentState, writtenBy?: number): Promise<void> {
    await this.db.run(
      'INSERT INTO comment_states (pull_key, state, updated_at) VALUES (?, ?, ?) ON CONFLICT (pull_key) DO UPDATE SET state = excluded.state, updated_at = excluded.updated_at',
      [pullKey, JSON.stringify(writtenBy === undefined ? state : { ...state, writtenBy }), Date.now()],
    );
  }

  private async read(pullKey: string): Promise<{ state?: CommentState; writtenBy?: number }> {
    const row = (await this.db.get('SELECT state FROM comment_states WHERE pull_key = ?', [pullKey])) as
      | { state: string }
      | undefined;
    if (!row) return {};
    try {
      const json: unknown = JSON.parse(row.state);
      const parsed = commentStateSchema.safeParse(json);
      const by = writtenBySchema.safeParse(json);
      return {
        ...(parsed.success ? { state: parsed.data } : {}),
        ...(by.success && by.data.writtenBy !== undefined ? { writtenBy: by.data.writtenBy } : {}),
      };
    } catch {
      return {};
    }
  }
}
