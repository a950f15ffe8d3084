/**
 * Landing a member whose branch requires GitHub's merge queue (a ruleset `merge_queue` rule: GitHub
 * refuses both `PUT …/merge` and direct ref updates there). Tandem hands the PR to that queue
 * (GraphQL `enqueuePullRequest`, pinned to the tested head with `expectedHeadOid`), waits until
 * GitHub merged it or dropped it, and then checks that what landed has exactly the tree Tandem
 * tested: GitHub's queue merges the head onto the branch tip as it then is, which equals the
 * tested commit's tree only while nothing else entered the branch first. A different tree is
 * reported as such (the caller reverts it with the rest), never passed off as tested.
 */
import { z } from 'zod';
import { errorText } from '../core/error-text.ts';
import { treeOf } from './branch-refs.ts';
import { type GitHub, repoId } from './octokit.ts';

export interface HandoffTarget {
  pull: string;
  repo: string;
  testedSha: string;
}

export interface HandoffOptions {
  /** Between looks at the queue entry (default 10 s; GitHub's queue runs the merge group's checks). */
  pollMs?: number;
  /** How long to wait for GitHub's queue before giving up (default 2 h). */
  timeoutMs?: number;
}

export type HandoffResult =
  | { landed: true; sha: string }
  | { landed: false; reason: string }
  /** GitHub merged it, but not as tested: it has landed and must be reverted with the rest. */
  | { landed: 'untested'; sha: string; reason: string };

const ENQUEUE = `mutation($pullRequestId: ID!, $expectedHeadOid: GitObjectID) {
  enqueuePullRequest(input: {pullRequestId: $pullRequestId, expectedHeadOid: $expectedHeadOid}) {
    mergeQueueEntry { id state position }
  }
}`;
const WATCH = `query($pullRequestId: ID!) {
  node(id: $pullRequestId) {
    ... on PullRequest { merged state mergeCommit { oid } mergeQueueEntry { state position } }
  }
}`;

const DEQUEUE = `mutation($id: ID!) { dequeuePullRequest(input: {id: $id}) { mergeQueueEntry { id } } }`;

const pullSchema = z.object({ node_id: z.string(), head: z.object({ sha: z.string() }) });
const watchSchema = z.object({
  node: z
    .object({
      merged: z.boolean(),
      state: z.string(),
      mergeCommit: z.object({ oid: z.string() }).nullable(),
      mergeQueueEntry: z.object({ state: z.string() }).nullable(),
    })
    .nullable(),
});

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The PR's number from `owner/repo#n`. */
const numberOf = (pull: string) => Number(pull.slice(pull.lastIndexOf('#') + 1));

export async function handOffToMergeQueue(
  gh: GitHub,
  t: HandoffTarget,
  opts: HandoffOptions = {},
): Promise<HandoffResult> {
  const { data } = await gh.rest.pulls.get({ ...repoId(t.repo), pull_number: numberOf(t.pull) });
  const pr = pullSchema.parse(data);
  try {
    await gh.graphql(ENQUEUE, { pullRequestId: pr.node_id, expectedHeadOid: pr.head.sha });
  } catch (e) {
    return { landed: false, reason: `GitHub's merge queue refused ${t.pull}: ${errorText(e)}` };
  }
  const deadline = Date.now() + (opts.timeoutMs ?? 2 * 3600_000);
  for (;;) {
    const node = watchSchema.parse(await gh.graphql(WATCH, { pullRequestId: pr.node_id })).node;
    if (!node) return { landed: false, reason: `${t.pull} is no longer visible to the App` };
    if (node.merged && node.mergeCommit) {
      const sha = node.mergeCommit.oid;
      const [landedTree, testedTree] = await Promise.all([
        treeOf(gh, t.repo, sha),
        treeOf(gh, t.repo, t.testedSha),
      ]);
      if (landedTree === testedTree) return { landed: true, sha };
      return {
        landed: 'untested',
        sha,
        reason: `GitHub's merge queue landed ${t.pull} as ${sha.slice(0, 7)}, whose tree differs from the tested commit ${t.testedSha.slice(0, 7)} (its branch moved in between)`,
      };
    }
    const entry = node.mergeQueueEntry?.state;
    if (!entry || entry === 'UNMERGEABLE')
      return {
        landed: false,
        reason: `GitHub's merge queue dropped ${t.pull} without merging it (${entry ?? 'removed'})`,
      };
    if (Date.now() > deadline) {
      // Left in GitHub's queue it could land later, unseen: take it out before saying it did not land.
      await gh.graphql(DEQUEUE, { id: pr.node_id });
      return {
        landed: false,
        reason: `GitHub's merge queue has not merged ${t.pull} in time (still ${entry}); it was taken out of that queue`,
      };
    }
    await pause(opts.pollMs ?? 10_000);
  }
}
