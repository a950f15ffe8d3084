/**
 * Who may command Tandem (write access or more) and the reaction that acknowledges a command.
 */
import { cloneUrlWithToken } from '../core/credentials.ts';
import type { RepoParts } from '../core/repo-name.ts';
import { type GitHub, httpStatus } from './octokit.ts';

const WRITERS = new Set(['admin', 'maintain', 'write']);

export async function canWrite(gh: GitHub, repo: RepoParts, username: string): Promise<boolean> {
  try {
    const { data } = await gh.rest.repos.getCollaboratorPermissionLevel({ ...repo, username });
    const role = (data as { role_name?: string }).role_name;
    return WRITERS.has(data.permission) || (role !== undefined && WRITERS.has(role));
  } catch (e) {
    if (httpStatus(e) === 404) return false;
    throw e;
  }
}

export async function reactToComment(
  gh: GitHub,
  repo: RepoParts,
  commentId: number,
  content: '+1' | 'eyes' | 'confused' | 'rocket',
): Promise<void> {
  await gh.rest.reactions.createForIssueComment({ ...repo, comment_id: commentId, content });
}

/** An installation token for cloning: `http(s)://x-access-token:TOKEN@host/owner/name.git`. */
export async function authenticatedCloneUrl(gh: GitHub, cloneUrl: string): Promise<string> {
  const auth = (await gh.auth({ type: 'installation' })) as { token?: string };
  return cloneUrlWithToken(cloneUrl, auth.token);
}
