/** Activity shapes: issue comments, reactions, check runs. */
import type { components } from '@octokit/openapi-types';
import { app, type ShapeContext, user } from './shapes.ts';
import type { CheckRunRecord, CommentRecord, ReactionRecord } from './state.ts';

type S = components['schemas'];

export function issueComment(ctx: ShapeContext, c: CommentRecord): S['issue-comment'] {
  const repoUrl = `${ctx.api}/repos/${c.owner}/${c.repo}`;
  const reactions = ctx.state.reactionList.filter((r) => r.commentId === c.id);
  const count = (content: string) => reactions.filter((r) => r.content === content).length;
  return {
    id: c.id,
    node_id: Buffer.from(`012:IssueComment${c.id}`).toString('base64'),
    url: `${repoUrl}/issues/comments/${c.id}`,
    html_url: `${ctx.html}/${c.owner}/${c.repo}/pull/${c.issueNumber}#issuecomment-${c.id}`,
    body: c.body,
    user: user(ctx, c.user),
    created_at: c.createdAt,
    updated_at: c.updatedAt,
    issue_url: `${repoUrl}/issues/${c.issueNumber}`,
    author_association: c.viaApp ? 'NONE' : 'MEMBER',
    performed_via_github_app: c.viaApp ? app(ctx) : null,
    reactions: {
      url: `${repoUrl}/issues/comments/${c.id}/reactions`,
      total_count: reactions.length,
      '+1': count('+1'),
      '-1': count('-1'),
      laugh: count('laugh'),
      confused: count('confused'),
      heart: count('heart'),
      hooray: count('hooray'),
      eyes: count('eyes'),
      rocket: count('rocket'),
    },
  };
}

export function reaction(ctx: ShapeContext, r: ReactionRecord): S['reaction'] {
  return {
    id: r.id,
    node_id: Buffer.from(`016:Reaction${r.id}`).toString('base64'),
    user: user(ctx, r.user),
    content: r.content as S['reaction']['content'],
    created_at: r.createdAt,
  };
}

export function checkRun(ctx: ShapeContext, c: CheckRunRecord): S['check-run'] {
  const url = `${ctx.api}/repos/${c.owner}/${c.repo}/check-runs/${c.id}`;
  const prs = ctx.state.pulls.filter(
    (p) => p.owner === c.owner && p.repo === c.repo && p.headSha === c.headSha && p.state === 'open',
  );
  const repoRef = (owner: string, name: string) => {
    const r = ctx.state.repo(owner, name);
    return { id: r?.id ?? 0, url: `${ctx.api}/repos/${owner}/${name}`, name };
  };
  return {
    id: c.id,
    head_sha: c.headSha,
    node_id: Buffer.from(`08:CheckRun${c.id}`).toString('base64'),
    external_id: c.externalId,
    url,
    html_url: `${ctx.html}/${c.owner}/${c.repo}/runs/${c.id}`,
    details_url: c.detailsUrl,
    status: c.status as S['check-run']['status'],
    conclusion: c.conclusion as S['check-run']['conclusion'],
    started_at: c.startedAt,
    completed_at: c.completedAt,
    output: {
      title: c.output.title,
      summary: c.output.summary,
      text: c.output.text,
      annotations_count: c.output.annotationsCount,
      annotations_url: `${url}/annotations`,
    },
    name: c.name,
    check_suite: { id: c.id + 500_000 },
    app: app(ctx),
    pull_requests: prs.map((p) => ({
      id: p.id,
      number: p.number,
      url: `${ctx.api}/repos/${p.owner}/${p.repo}/pulls/${p.number}`,
      head: { ref: p.headRef, sha: p.headSha, repo: repoRef(p.headRepo.owner, p.headRepo.name) },
      base: { ref: p.baseRef, sha: p.baseSha, repo: repoRef(p.owner, p.repo) },
    })),
  };
}
