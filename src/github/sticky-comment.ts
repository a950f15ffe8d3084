/**
 * One comment per member PR, found by a hidden marker among the PR's comments written by the App,
 * edited in place and left alone when nothing changed.
 */
import { COMMENT_LIMIT, fitText } from '../core/github-limits.ts';
import type { RepoParts } from '../core/repo-name.ts';
import type { GitHub } from './octokit.ts';

export const COMMENT_MARKER = '<!-- tandem:linked-change -->';
/**
 * `/tandem merge` answers in a comment of its own: re-evaluations rewrite the verdict comment,
 * and what a merge did (a half-merged set above all) must stay in sight.
 */
export const MERGE_MARKER = '<!-- tandem:merge -->';
const TRIM_NOTICE = '\n\n> ⚠️ This comment was trimmed to fit GitHub’s 65,536-character limit.\n';

/** Puts the marker first and trims the body under the limit with a notice. */
export function stickyBody(content: string, marker = COMMENT_MARKER): string {
  return fitText(`${marker}\n${content}`, COMMENT_LIMIT, TRIM_NOTICE);
}

interface CommentShape {
  id: number;
  body?: string | null;
  user?: { type?: string } | null;
  performed_via_github_app?: unknown;
}

function isOurs(c: CommentShape, marker: string): boolean {
  return Boolean(c.body?.includes(marker)) && (c.performed_via_github_app != null || c.user?.type === 'Bot');
}

export async function findStickyComment(
  gh: GitHub,
  repo: RepoParts,
  number: number,
  marker = COMMENT_MARKER,
): Promise<{ id: number; body: string } | undefined> {
  const comments = (await gh.paginate(gh.rest.issues.listComments, {
    ...repo,
    issue_number: number,
    per_page: 100,
  })) as CommentShape[];
  const found = comments.find((c) => isOurs(c, marker));
  return found ? { id: found.id, body: found.body ?? '' } : undefined;
}

/** Creates or edits the sticky comment; `unchanged` when the body is already current. */
export async function upsertStickyComment(
  gh: GitHub,
  repo: RepoParts,
  number: number,
  content: string,
  marker = COMMENT_MARKER,
): Promise<{ id: number; action: 'created' | 'updated' | 'unchanged' }> {
  const body = stickyBody(content, marker);
  const existing = await findStickyComment(gh, repo, number, marker);
  if (existing && existing.body === body) return { id: existing.id, action: 'unchanged' };
  if (existing) {
    await gh.rest.issues.updateComment({ ...repo, comment_id: existing.id, body });
    return { id: existing.id, action: 'updated' };
  }
  const { data } = await gh.rest.issues.createComment({ ...repo, issue_number: number, body });
  return { id: data.id, action: 'created' };
}
