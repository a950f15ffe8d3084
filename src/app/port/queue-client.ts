/**
 * The linked-set merge queue (`merge-command/queue-*.ts`) is the one room not on the GitHub port
 * yet: its functions still take the Octokit client. Its callers hold a port; this hands them the
 * client the port was built over, and says so plainly when there is none (the in-memory fake,
 * whose tests of the queue go through the HTTP stand-in instead); the queue's calls into rooms on
 * the port go the other way (`portOver`). Remove once the queue takes the port.
 */
import type { GitHub } from '../../github/octokit.ts';
import type { GitHubPort } from './github-port.ts';
import { clientUnder, octokitPort } from './octokit-port.ts';

export function queueClient(port: GitHubPort): QueueClient {
  const client = clientUnder(port);
  if (!client) throw new Error('the merge queue needs a port over Octokit (test it over the HTTP stand-in)');
  return client;
}

/** The client the merge queue's functions take (Octokit). */
export type QueueClient = GitHub;

/** The port over the client the merge queue holds, for the rooms it calls that are on the port. */
export function portOver(client: QueueClient): GitHubPort {
  return octokitPort(client);
}
