/** Issue comments, comment reactions and issue search (PRs are the only issues the stand-in keeps). */
import { z } from 'zod';
import { issueComment, reaction } from '../activity-shapes.ts';
import {
  HttpError,
  intParam,
  notFound,
  paginate,
  type Route,
  type RouteContext,
  route,
  validate,
} from '../http.ts';
import { issueSearchItem } from '../pull-shapes.ts';
import { type CommentRecord, now, type PullRecord } from '../state.ts';
import { findInRepo, requireRepo } from './repos.ts';

/** GitHub caps comment bodies at 65536 characters. */
const CommentBody = z.object({
  body: z.string().max(65536, 'Body is too long (maximum is 65536 characters)'),
});
const ReactionBody = z.object({
  content: z.enum(['+1', '-1', 'laugh', 'confused', 'heart', 'hooray', 'rocket', 'eyes']),
});

function findComment(ctx: RouteContext): CommentRecord {
  return findInRepo(requireRepo(ctx), ctx.state.commentList, intParam(ctx.params.id));
}

function author(ctx: RouteContext): string {
  if (!ctx.caller.login) throw new HttpError(401, 'Requires authentication');
  return ctx.caller.login;
}

/**
 * A small subset of GitHub's search syntax: quoted phrases and bare words (AND, case-insensitive,
 * matched in title and body), `type:pr|issue`, `is:pr|issue|open|closed|merged`, `state:`,
 * `org:`/`user:`, `repo:owner/name`, `author:`, `in:` (accepted, ignored).
 */
export function searchPulls(pulls: PullRecord[], q: string): PullRecord[] {
  const tokens = q.match(/(\w+:"[^"]*"|"[^"]*"|\S+)/g) ?? [];
  const preds: ((p: PullRecord) => boolean)[] = [];
  // Free-text terms joined by `OR` match when any of them does; other terms must all match.
  const anyOf: string[][] = [];
  let or = false;
  for (const tok of tokens) {
    if (tok === 'OR') {
      or = anyOf.length > 0;
      continue;
    }
    const qual = /^(\w+):(.+)$/.exec(tok);
    const [key, raw] = qual
      ? [qual[1]?.toLowerCase(), (qual[2] ?? '').replace(/^"|"$/g, '')]
      : [undefined, ''];
    const v = raw.toLowerCase();
    if (key === 'type' || key === 'is') {
      if (v === 'issue') preds.push(() => false);
      else if (v === 'open' || v === 'closed') preds.push((p) => p.state === v);
      else if (v === 'merged') preds.push((p) => p.merged);
      else if (v === 'unmerged') preds.push((p) => !p.merged);
      else if (v === 'draft') preds.push((p) => p.draft);
      // `pr` / `pull-request` match everything we keep.
    } else if (key === 'state') preds.push((p) => p.state === v);
    else if (key === 'org' || key === 'user') preds.push((p) => p.owner.toLowerCase() === v);
    else if (key === 'repo') preds.push((p) => `${p.owner}/${p.repo}`.toLowerCase() === v);
    else if (key === 'author') preds.push((p) => p.user.toLowerCase() === v);
    else if (key === 'in') {
      // Search scope; we always search title and body.
    } else {
      const phrase = tok.replace(/^"|"$/g, '').toLowerCase();
      if (phrase && or) anyOf.at(-1)!.push(phrase);
      else if (phrase) anyOf.push([phrase]);
    }
    or = false;
  }
  for (const group of anyOf) {
    preds.push((p) => {
      const text = `${p.title}\n${p.body ?? ''}`.toLowerCase();
      return group.some((phrase) => text.includes(phrase));
    });
  }
  return pulls.filter((p) => preds.every((f) => f(p)));
}

export function issueRoutes(): Route[] {
  return [
    route('GET', '/repos/{owner}/{repo}/issues/{number}/comments', 'token', (ctx) => {
      const r = requireRepo(ctx);
      const n = intParam(ctx.params.number);
      if (!ctx.state.pull(r.owner, r.name, n)) throw notFound();
      const since = ctx.query.get('since');
      const list = ctx.state.commentList
        .filter((c) => c.owner === r.owner && c.repo === r.name && c.issueNumber === n)
        .filter((c) => !since || c.updatedAt >= since);
      const { page, headers } = paginate(ctx, list);
      return { status: 200, body: page.map((c) => issueComment(ctx.shapes, c)), headers };
    }),

    route('POST', '/repos/{owner}/{repo}/issues/{number}/comments', 'token', (ctx) => {
      const r = requireRepo(ctx);
      const n = intParam(ctx.params.number);
      if (!ctx.state.pull(r.owner, r.name, n)) throw notFound();
      const { body } = validate(CommentBody, ctx.body, 'IssueComment');
      const at = now();
      const c: CommentRecord = {
        id: ctx.state.newId(),
        owner: r.owner,
        repo: r.name,
        issueNumber: n,
        body,
        user: author(ctx),
        viaApp: ctx.caller.installationId !== undefined,
        createdAt: at,
        updatedAt: at,
      };
      ctx.state.commentList.push(c);
      const shaped = issueComment(ctx.shapes, c);
      return { status: 201, body: shaped, headers: { location: shaped.url } };
    }),

    route('GET', '/repos/{owner}/{repo}/issues/comments/{id}', 'token', (ctx) => ({
      status: 200,
      body: issueComment(ctx.shapes, findComment(ctx)),
    })),

    route('PATCH', '/repos/{owner}/{repo}/issues/comments/{id}', 'token', (ctx) => {
      const c = findComment(ctx);
      const { body } = validate(CommentBody, ctx.body, 'IssueComment');
      // Editing someone else's comment needs write access; an App may edit only its own here.
      if (c.user !== author(ctx)) throw new HttpError(403, 'Resource not accessible by integration');
      c.body = body;
      c.updatedAt = now();
      return { status: 200, body: issueComment(ctx.shapes, c) };
    }),

    route('DELETE', '/repos/{owner}/{repo}/issues/comments/{id}', 'token', (ctx) => {
      const c = findComment(ctx);
      ctx.state.commentList.splice(ctx.state.commentList.indexOf(c), 1);
      return { status: 204 };
    }),

    route('POST', '/repos/{owner}/{repo}/issues/comments/{id}/reactions', 'token', (ctx) => {
      const c = findComment(ctx);
      const { content } = validate(ReactionBody, ctx.body, 'Reaction');
      const login = author(ctx);
      const existing = ctx.state.reactionList.find(
        (x) => x.commentId === c.id && x.content === content && x.user === login,
      );
      // Same reaction twice: GitHub answers 200 with the existing one.
      if (existing) return { status: 200, body: reaction(ctx.shapes, existing) };
      const rec = { id: ctx.state.newId(), commentId: c.id, content, user: login, createdAt: now() };
      ctx.state.reactionList.push(rec);
      return { status: 201, body: reaction(ctx.shapes, rec) };
    }),

    route('GET', '/search/issues', 'token', (ctx) => {
      const q = ctx.query.get('q');
      if (!q) {
        throw new HttpError(422, 'Validation Failed', {
          errors: [{ resource: 'Search', field: 'q', code: 'missing' }],
        });
      }
      const inst = ctx.caller.installationId;
      const visible = ctx.state.pulls.filter(
        (p) => inst === undefined || ctx.state.repo(p.owner, p.repo)?.installationId === inst,
      );
      const found = searchPulls(visible, q).sort(
        (a, b) => b.createdAt.localeCompare(a.createdAt) || b.id - a.id,
      );
      const { page, headers } = paginate(ctx, found);
      return {
        status: 200,
        body: {
          total_count: found.length,
          incomplete_results: false,
          search_type: 'lexical',
          items: page.map((p) => issueSearchItem(ctx.shapes, p)),
        },
        headers,
      };
    }),
  ];
}
