/**
 * How private a repository is, as GitHub says it (`visibility`, or the older `private` flag), and
 * the order privacy flows in: nothing of a more private repository reaches a more public one's
 * PR, comment, check or report (unless a suite opts in with `share_private`). Pure.
 */
import { z } from 'zod';

export const repoVisibilitySchema = z.enum(['public', 'internal', 'private']);
export type RepoVisibility = z.infer<typeof repoVisibilitySchema>;

const RANK: Record<RepoVisibility, number> = { public: 0, internal: 1, private: 2 };

/** 0 public, 1 internal, 2 private; unknown counts as private (never shown by mistake). */
export function privacyRank(v: RepoVisibility | undefined): number {
  return v === undefined ? RANK.private : RANK[v];
}

/** GitHub's repository fields to a visibility: `visibility` when sent, else the `private` flag. */
export function visibilityOf(repo: {
  visibility?: string | null;
  private?: boolean | null;
}): RepoVisibility | undefined {
  const v = repoVisibilitySchema.safeParse(repo.visibility);
  if (v.success) return v.data;
  if (typeof repo.private === 'boolean') return repo.private ? 'private' : 'public';
  return undefined;
}
