/**
 * The linked-set merge queue (`merge-command/queue-*.ts`) is the one room not on the GitHub port
 * yet: its functions still take the Octokit client. Its callers hold a port; this hands them the
 * client the port was built over, and says so plainly when there is none (the in-memory fake,
 * whose tests of the queue go through the HTTP stand-in instead). Remove once the queue takes
 * the port.
 */
import type { GitHub } from '../../github/octokit.ts';
import { markCommentsMerged } from '../evaluations/sticky-comments.ts';
import type { CommentStatesTable } from '../store/store-comment-states.ts';
import type { GitHubPort } from './github-port.ts';
import { clientUnder, octokitPort } from './octokit-port.ts';

export function queueClient(port: GitHubPort): GitHub {
  const client = clientUnder(port);
  if (!client) throw new Error('the merge queue needs a port over Octokit (test it over the HTTP stand-in)');
  return client;
}

/** `markCommentsMerged` for the queue runner, which holds the client: the port over it does the writing. */
export function markCommentsMergedWithClient(
  gh: GitHub,
  keys: readonly string[],
  requestedBy: string,
  states: CommentStatesTable,
): Promise<void> {
  return markCommentsMerged(octokitPort(gh), keys, requestedBy, states);
}
