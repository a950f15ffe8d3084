/**
 * GitHub's merge queue as its GraphQL API shows it (`POST /graphql`, `/api/graphql` for GHES
 * clients): the `enqueuePullRequest` mutation (variables `pullRequestId`, `expectedHeadOid`)
 * answers the entry `QUEUED`, `dequeuePullRequest` (variable `id`) takes it out; a query `node(id: $pullRequestId)` answers the PR's `state`,
 * `merged`, `mergeCommit { oid }` and `mergeQueueEntry { state position }`. The queue is processed
 * when the next GraphQL request arrives (a request, not a clock, moves it): each entry's head is
 * merged onto its base branch's tip in the real git repository (a merge commit, as a queue with
 * `merge_method: MERGE` lands it), the branch moved and the PR marked merged; an entry whose merge
 * conflicts, or one a test failed (`failMergeQueue`), leaves the queue unmerged, as a failed merge
 * group does. Enqueueing where the branch has no `merge_queue` rule is a GraphQL error.
 * The answer carries every field above whatever the query selected (a stand-in simplification).
 * The same endpoint answers the `updateRefs` mutation (update-refs.ts).
 */
import { git, gitOut } from '../../../../src/engine/git/git.ts';
import { requirementsOf } from '../branch-rules.ts';
import { HttpError, type Route, type RouteContext, route } from '../http.ts';
import { markReachablePulls } from '../ref-updates.ts';
import { type PullRecord, perState, repoKey, type StandInState } from '../state.ts';
import { gitDirOf } from './merges.ts';
import { setBranch } from './repos.ts';
import { updateRefsMutation } from './update-refs.ts';

interface Entry {
  id: string;
  pull: PullRecord;
  state: 'QUEUED' | 'AWAITING_CHECKS' | 'UNMERGEABLE';
}

interface QueueWorld {
  entries: Entry[];
  /** `owner/repo` → reasons the next entries fail with. */
  failures: Map<string, string[]>;
}

const world = perState((): QueueWorld => ({ entries: [], failures: new Map() }));

/** The next entry of `owner/repo`'s queue fails (its merge group's checks failed) instead of merging. */
export function failMergeQueue(
  state: StandInState,
  owner: string,
  repo: string,
  reason = 'checks failed',
): void {
  const key = repoKey(owner, repo);
  world(state).failures.set(key, [...(world(state).failures.get(key) ?? []), reason]);
}

const pullNodeId = (p: PullRecord) => Buffer.from(`011:PullRequest${p.id}`).toString('base64');

const ENV = {
  GIT_AUTHOR_NAME: 'GitHub',
  GIT_AUTHOR_EMAIL: 'noreply@github.com',
  GIT_COMMITTER_NAME: 'GitHub',
  GIT_COMMITTER_EMAIL: 'noreply@github.com',
};

async function land(state: StandInState, e: Entry): Promise<boolean> {
  const p = e.pull;
  const dir = gitDirOf(state, p.owner, p.repo);
  const failures = world(state).failures.get(repoKey(p.owner, p.repo)) ?? [];
  if (!dir || failures.shift() !== undefined || p.state !== 'open') return false;
  const tip = (await gitOut(['rev-parse', `refs/heads/${p.baseRef}`], { cwd: dir })).trim();
  const tree = await git(['merge-tree', '--write-tree', tip, p.headSha], { cwd: dir, allowFailure: true });
  if (tree.code !== 0) return false;
  const message = `Merge pull request #${p.number} from ${p.headRepo.owner}/${p.headRef}\n\n${p.title}`;
  const sha = (
    await gitOut(
      ['commit-tree', tree.stdout.split('\n')[0]!.trim(), '-p', tip, '-p', p.headSha, '-m', message],
      {
        cwd: dir,
        env: ENV,
      },
    )
  ).trim();
  await git(['update-ref', `refs/heads/${p.baseRef}`, sha, tip], { cwd: dir });
  setBranch(state, p.owner, p.repo, p.baseRef, sha);
  await markReachablePulls(state, dir, p.owner, p.repo, p.baseRef, sha);
  return true;
}

/** Lands (or fails) every queued entry, in order. */
async function processQueue(state: StandInState): Promise<void> {
  const w = world(state);
  for (const e of [...w.entries]) {
    if (e.state === 'UNMERGEABLE') continue;
    w.entries = w.entries.filter((x) => x !== e);
    if (!(await land(state, e))) e.state = 'UNMERGEABLE';
  }
}

const gqlError = (message: string, type = 'UNPROCESSABLE') => ({
  status: 200,
  body: { data: null, errors: [{ type, message, path: ['enqueuePullRequest'] }] },
});

function pullByNode(state: StandInState, id: unknown): PullRecord | undefined {
  return state.pulls.find((p) => pullNodeId(p) === id);
}

async function graphql(ctx: RouteContext) {
  const body = (ctx.body ?? {}) as { query?: unknown; variables?: Record<string, unknown> };
  if (typeof body.query !== 'string') throw new HttpError(400, 'Problems parsing JSON');
  const vars = body.variables ?? {};
  const w = world(ctx.state);
  if (/\bupdateRefs\b/.test(body.query)) return updateRefsMutation(ctx, vars);
  if (/\benqueuePullRequest\b/.test(body.query)) {
    const p = pullByNode(ctx.state, vars.pullRequestId);
    if (!p)
      return gqlError(
        `Could not resolve to a node with the global id of '${String(vars.pullRequestId)}'`,
        'NOT_FOUND',
      );
    if (!requirementsOf(ctx.state, p.owner, p.repo, p.baseRef).merge?.mergeQueue)
      return gqlError('Merge queue is not enabled for the base branch of this pull request');
    if (p.state !== 'open') return gqlError('Pull request is not open');
    if (vars.expectedHeadOid !== undefined && vars.expectedHeadOid !== p.headSha)
      return gqlError('Head sha does not match the expected head oid');
    const existing = w.entries.find((e) => e.pull === p && e.state !== 'UNMERGEABLE');
    const entry = existing ?? {
      id: Buffer.from(`MQE_${p.id}`).toString('base64'),
      pull: p,
      state: 'QUEUED' as const,
    };
    if (!existing) w.entries = [...w.entries.filter((e) => e.pull !== p), entry];
    const position = w.entries.indexOf(entry) + 1;
    return {
      status: 200,
      body: {
        data: { enqueuePullRequest: { mergeQueueEntry: { id: entry.id, state: entry.state, position } } },
      },
    };
  }
  if (/\bdequeuePullRequest\b/.test(body.query)) {
    const p = pullByNode(ctx.state, vars.id);
    const entry = w.entries.find((e) => e.pull === p);
    if (!entry) return gqlError('Pull request is not in the merge queue');
    w.entries = w.entries.filter((e) => e !== entry);
    return { status: 200, body: { data: { dequeuePullRequest: { mergeQueueEntry: { id: entry.id } } } } };
  }
  await processQueue(ctx.state);
  const p = pullByNode(ctx.state, vars.pullRequestId ?? vars.id);
  if (!p) return { status: 200, body: { data: { node: null } } };
  const entry = w.entries.find((e) => e.pull === p);
  if (entry?.state === 'UNMERGEABLE') w.entries = w.entries.filter((e) => e !== entry);
  return {
    status: 200,
    body: {
      data: {
        node: {
          id: pullNodeId(p),
          number: p.number,
          state: p.merged ? 'MERGED' : p.state === 'open' ? 'OPEN' : 'CLOSED',
          merged: p.merged,
          mergeCommit: p.merged && p.mergeCommitSha ? { oid: p.mergeCommitSha } : null,
          mergeQueueEntry: entry ? { id: entry.id, state: entry.state, position: 1 } : null,
        },
      },
    },
  };
}

export function mergeQueueRoutes(): Route[] {
  return [route('POST', '/graphql', 'token', graphql), route('POST', '/api/graphql', 'token', graphql)];
}
