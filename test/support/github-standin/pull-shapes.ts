/** Pull request shapes: the REST pull request and its issue view (search results). */
import type { components } from '@octokit/openapi-types';
import { ruleViolation } from './branch-rules.ts';
import { issueUrls, pullLinks, repository, type ShapeContext, user } from './shapes.ts';
import type { PullRecord } from './state.ts';

type S = components['schemas'];

function repoOrStub(ctx: ShapeContext, owner: string, name: string): S['repository'] {
  const r = ctx.state.repo(owner, name);
  return repository(
    ctx,
    r ?? {
      id: 0,
      owner,
      name,
      cloneUrl: `https://github.com/${owner}/${name}.git`,
      defaultBranch: 'main',
      private: false,
      installationId: 0,
      createdAt: '2024-01-01T00:00:00Z',
    },
  );
}

export function pullRequest(ctx: ShapeContext, p: PullRecord): S['pull-request'] {
  const repoUrl = `${ctx.api}/repos/${p.owner}/${p.repo}`;
  const url = `${repoUrl}/pulls/${p.number}`;
  const html = `${ctx.html}/${p.owner}/${p.repo}/pull/${p.number}`;
  const issueUrl = `${repoUrl}/issues/${p.number}`;
  const link = (href: string) => ({ href });
  return {
    url,
    id: p.id,
    node_id: Buffer.from(`011:PullRequest${p.id}`).toString('base64'),
    html_url: html,
    diff_url: `${html}.diff`,
    patch_url: `${html}.patch`,
    issue_url: issueUrl,
    commits_url: `${url}/commits`,
    review_comments_url: `${url}/comments`,
    review_comment_url: `${repoUrl}/pulls/comments{/number}`,
    comments_url: `${issueUrl}/comments`,
    statuses_url: `${repoUrl}/statuses/${p.headSha}`,
    number: p.number,
    state: p.state,
    locked: false,
    title: p.title,
    user: user(ctx, p.user),
    body: p.body,
    labels: [],
    milestone: null,
    active_lock_reason: null,
    created_at: p.createdAt,
    updated_at: p.updatedAt,
    closed_at: p.closedAt,
    merged_at: p.mergedAt,
    merge_commit_sha: p.mergeCommitSha ?? null,
    assignee: null,
    assignees: [],
    requested_reviewers: [],
    requested_teams: [],
    head: {
      label: `${p.headRepo.owner}:${p.headRef}`,
      ref: p.headRef,
      sha: p.headSha,
      user: user(ctx, p.headRepo.owner),
      repo: repoOrStub(ctx, p.headRepo.owner, p.headRepo.name),
    },
    base: {
      label: `${p.owner}:${p.baseRef}`,
      ref: p.baseRef,
      sha: p.baseSha,
      user: user(ctx, p.owner),
      repo: repoOrStub(ctx, p.owner, p.repo),
    },
    _links: {
      self: link(url),
      html: link(html),
      issue: link(issueUrl),
      comments: link(`${issueUrl}/comments`),
      review_comments: link(`${url}/comments`),
      review_comment: link(`${repoUrl}/pulls/comments{/number}`),
      commits: link(`${url}/commits`),
      statuses: link(`${repoUrl}/statuses/${p.headSha}`),
    },
    author_association: 'MEMBER',
    auto_merge: null,
    draft: p.draft,
    merged: p.merged,
    mergeable: p.state === 'open' ? true : null,
    rebaseable: p.state === 'open' ? true : null,
    // GitHub says `blocked` while the branch's merge rules are not met (reviews, code owners, …).
    mergeable_state:
      p.state !== 'open' ? 'unknown' : ruleViolation(ctx.state, p.owner, p.repo, p) ? 'blocked' : 'clean',
    merged_by: p.merged ? user(ctx, p.user) : null,
    comments: ctx.state.commentList.filter(
      (c) => c.owner === p.owner && c.repo === p.repo && c.issueNumber === p.number,
    ).length,
    review_comments: 0,
    maintainer_can_modify: false,
    commits: p.commits?.length ?? 1,
    additions: 1,
    deletions: 0,
    changed_files: 1,
  };
}

/** The issue view of a PR, as `/search/issues` returns it. */
export function issueSearchItem(ctx: ShapeContext, p: PullRecord): S['issue-search-result-item'] {
  return {
    ...issueUrls(ctx, p.owner, p.repo, p.number, 'pull'),
    id: p.id,
    node_id: Buffer.from(`011:PullRequest${p.id}`).toString('base64'),
    number: p.number,
    title: p.title,
    locked: false,
    active_lock_reason: null,
    assignees: [],
    user: user(ctx, p.user),
    labels: [],
    state: p.state,
    state_reason: null,
    assignee: null,
    milestone: null,
    comments: 0,
    created_at: p.createdAt,
    updated_at: p.updatedAt,
    closed_at: p.closedAt,
    pull_request: pullLinks(ctx, p.owner, p.repo, p.number, p.mergedAt),
    body: p.body ?? undefined,
    score: 1,
    author_association: 'MEMBER',
    draft: p.draft,
  };
}
