/**
 * What mining reads from GitHub: an organization's repositories, a PR's commits, issues (a PR is
 * an issue too), and issue timelines (`cross-referenced` events: PRs that mention the issue, in
 * their text or as seeded with `crossReference`). Shapes follow GitHub's OpenAPI description.
 */
import type { components } from '@octokit/openapi-types';
import { intParam, notFound, paginate, type Route, type RouteContext, route } from '../http.ts';
import { issueUrls, pullLinks, repository, type ShapeContext, user } from '../shapes.ts';
import type { IssueRecord, PullRecord } from '../state.ts';
import { requirePull, requireRepo } from './repos.ts';

type S = components['schemas'];

type AsIssue = Pick<IssueRecord, 'id' | 'owner' | 'repo' | 'number' | 'title' | 'body' | 'state' | 'user'> &
  Pick<IssueRecord, 'createdAt' | 'updatedAt' | 'closedAt'> & { pull?: PullRecord };

/** An issue, or a PR in its issue view (`pull_request` set), as `GET …/issues/{n}` returns it. */
export function issueShape(ctx: ShapeContext, i: AsIssue): S['issue'] {
  return {
    id: i.id,
    node_id: Buffer.from(`05:Issue${i.id}`).toString('base64'),
    ...issueUrls(ctx, i.owner, i.repo, i.number, i.pull ? 'pull' : 'issues'),
    number: i.number,
    state: i.state,
    state_reason: i.state === 'closed' ? 'completed' : null,
    title: i.title,
    body: i.body,
    user: user(ctx, i.user),
    labels: [],
    assignee: null,
    assignees: [],
    milestone: null,
    locked: false,
    active_lock_reason: null,
    comments: 0,
    ...(i.pull ? { pull_request: pullLinks(ctx, i.owner, i.repo, i.number, i.pull.mergedAt) } : {}),
    closed_at: i.closedAt,
    created_at: i.createdAt,
    updated_at: i.updatedAt,
    timeline_url: `${ctx.api}/repos/${i.owner}/${i.repo}/issues/${i.number}/timeline`,
    author_association: 'MEMBER',
  };
}

const pullAsIssue = (p: PullRecord): AsIssue => ({ ...p, pull: p });

export function commitShape(
  ctx: ShapeContext,
  owner: string,
  repo: string,
  c: { sha: string; message: string; parents?: string[]; verified?: boolean },
): S['commit'] {
  const api = `${ctx.api}/repos/${owner}/${repo}`;
  const who = { name: 'Octo Cat', email: 'octocat@example.com', date: '2024-01-01T00:00:00Z' };
  return {
    url: `${api}/commits/${c.sha}`,
    sha: c.sha,
    node_id: Buffer.from(`06:Commit${c.sha}`).toString('base64'),
    html_url: `${ctx.html}/${owner}/${repo}/commit/${c.sha}`,
    comments_url: `${api}/commits/${c.sha}/comments`,
    commit: {
      url: `${api}/git/commits/${c.sha}`,
      author: who,
      committer: who,
      message: c.message,
      comment_count: 0,
      tree: { sha: '0'.repeat(40), url: `${api}/git/trees/${'0'.repeat(40)}` },
      verification: {
        verified: c.verified ?? false,
        reason: c.verified ? 'valid' : 'unsigned',
        signature: null,
        payload: null,
        verified_at: null,
      },
    },
    author: null,
    committer: null,
    parents: (c.parents ?? []).map((sha) => ({ sha, url: `${api}/commits/${sha}` })),
  };
}

/** Whether a PR's title or body names `owner/repo#n` (also as `#n` within the same repository, or a URL). */
function mentions(p: PullRecord, owner: string, repo: string, n: number): boolean {
  const text = `${p.title}\n${p.body ?? ''}`.toLowerCase();
  const full = `${owner}/${repo}`.toLowerCase();
  const same = `${p.owner}/${p.repo}`.toLowerCase() === full;
  const re = new RegExp(
    `(?:${full.replace(/[.]/g, '\\.')}#|/${full.replace(/[.]/g, '\\.')}/(?:issues|pull)/${same ? '|(?<![\\w/])#' : ''})${n}(?!\\d)`,
  );
  return re.test(text);
}

function timeline(
  ctx: RouteContext,
  owner: string,
  repo: string,
  n: number,
): S['timeline-cross-referenced-event'][] {
  const fromText = ctx.state.pulls
    .filter((p) => !(p.owner === owner && p.repo === repo && p.number === n) && mentions(p, owner, repo, n))
    .map((p) => ({ pull: p, at: p.createdAt }));
  const seeded = ctx.state.crossReferences
    .filter(
      (x) =>
        `${x.target.owner}/${x.target.repo}`.toLowerCase() === `${owner}/${repo}`.toLowerCase() &&
        x.target.number === n,
    )
    .map((x) => ({ pull: ctx.state.pull(x.source.owner, x.source.repo, x.source.number), at: x.createdAt }))
    .filter((x): x is { pull: PullRecord; at: string } => x.pull !== undefined);
  return [...fromText, ...seeded]
    .sort((a, b) => a.at.localeCompare(b.at))
    .map(({ pull, at }) => ({
      event: 'cross-referenced',
      actor: user(ctx.shapes, pull.user),
      created_at: at,
      updated_at: at,
      source: {
        type: 'issue',
        issue: {
          ...issueShape(ctx.shapes, pullAsIssue(pull)),
          repository: repository(ctx.shapes, ctx.state.repo(pull.owner, pull.repo)!),
        },
      },
    }));
}

export function historyRoutes(): Route[] {
  return [
    route('GET', '/orgs/{org}/repos', 'token', (ctx) => {
      const org = (ctx.params.org ?? '').toLowerCase();
      const inst = ctx.caller.installationId;
      const list = [...ctx.state.repos.values()]
        .filter((r) => r.owner.toLowerCase() === org && (inst === undefined || r.installationId === inst))
        .sort((a, b) => a.name.localeCompare(b.name));
      const { page, headers } = paginate(ctx, list);
      return { status: 200, body: page.map((r) => repository(ctx.shapes, r)), headers };
    }),

    route('GET', '/repos/{owner}/{repo}/pulls/{number}/commits', 'token', (ctx) => {
      const { r, p } = requirePull(ctx);
      const commits = p.commits ?? [{ sha: p.headSha, message: p.title, parents: [p.baseSha] }];
      const { page, headers } = paginate(ctx, commits);
      return { status: 200, body: page.map((c) => commitShape(ctx.shapes, r.owner, r.name, c)), headers };
    }),

    route('GET', '/repos/{owner}/{repo}/issues/{number}', 'token', (ctx) => {
      const r = requireRepo(ctx);
      const n = intParam(ctx.params.number);
      const pull = ctx.state.pull(r.owner, r.name, n);
      const issue = ctx.state.issue(r.owner, r.name, n);
      if (!pull && !issue) throw notFound();
      return { status: 200, body: issueShape(ctx.shapes, pull ? pullAsIssue(pull) : issue!) };
    }),

    route('GET', '/repos/{owner}/{repo}/issues/{number}/timeline', 'token', (ctx) => {
      const r = requireRepo(ctx);
      const n = intParam(ctx.params.number);
      if (!ctx.state.pull(r.owner, r.name, n) && !ctx.state.issue(r.owner, r.name, n)) throw notFound();
      const { page, headers } = paginate(ctx, timeline(ctx, r.owner, r.name, n));
      return { status: 200, body: page, headers };
    }),
  ];
}
