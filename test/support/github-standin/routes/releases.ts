/**
 * What mining reads of a repository's versions and diffs: releases (newest first), tags, and the
 * files a pull request changed with their `patch`. Shapes follow GitHub's OpenAPI description.
 */
import { createHash } from 'node:crypto';
import type { components } from '@octokit/openapi-types';
import { paginate, type Route, route } from '../http.ts';
import { type ShapeContext, user } from '../shapes.ts';
import type { PullFileRecord, ReleaseRecord, TagRecord } from '../state.ts';
import { requirePull, requireRepo } from './repos.ts';

type S = components['schemas'];

function releaseShape(ctx: ShapeContext, r: ReleaseRecord): S['release'] {
  const api = `${ctx.api}/repos/${r.owner}/${r.repo}`;
  return {
    url: `${api}/releases/${r.id}`,
    html_url: `${ctx.html}/${r.owner}/${r.repo}/releases/tag/${r.tagName}`,
    assets_url: `${api}/releases/${r.id}/assets`,
    upload_url: `https://uploads.github.com/repos/${r.owner}/${r.repo}/releases/${r.id}/assets{?name,label}`,
    tarball_url: `${api}/tarball/${r.tagName}`,
    zipball_url: `${api}/zipball/${r.tagName}`,
    id: r.id,
    node_id: Buffer.from(`07:Release${r.id}`).toString('base64'),
    tag_name: r.tagName,
    target_commitish: r.targetCommitish,
    name: r.name,
    body: null,
    draft: false,
    prerelease: false,
    created_at: r.publishedAt,
    published_at: r.publishedAt,
    author: user(ctx, 'octocat'),
    assets: [],
  };
}

function tagShape(ctx: ShapeContext, t: TagRecord): S['tag'] {
  const api = `${ctx.api}/repos/${t.owner}/${t.repo}`;
  return {
    name: t.name,
    commit: { sha: t.sha, url: `${api}/commits/${t.sha}` },
    zipball_url: `${api}/zipball/refs/tags/${t.name}`,
    tarball_url: `${api}/tarball/refs/tags/${t.name}`,
    node_id: Buffer.from(`03:Ref${t.owner}/${t.repo}/${t.name}`).toString('base64'),
  };
}

function fileShape(
  ctx: ShapeContext,
  owner: string,
  repo: string,
  head: string,
  f: PullFileRecord,
): S['diff-entry'] {
  const sha = createHash('sha1').update(`${head}:${f.filename}`).digest('hex');
  return {
    sha,
    filename: f.filename,
    status: f.status,
    additions: f.additions,
    deletions: f.deletions,
    changes: f.additions + f.deletions,
    blob_url: `${ctx.html}/${owner}/${repo}/blob/${head}/${f.filename}`,
    raw_url: `${ctx.html}/${owner}/${repo}/raw/${head}/${f.filename}`,
    contents_url: `${ctx.api}/repos/${owner}/${repo}/contents/${f.filename}?ref=${head}`,
    ...(f.patch !== undefined ? { patch: f.patch } : {}),
  };
}

const sameRepo = (a: { owner: string; repo: string }, owner: string, name: string) =>
  a.owner.toLowerCase() === owner.toLowerCase() && a.repo.toLowerCase() === name.toLowerCase();

export function releaseRoutes(): Route[] {
  return [
    route('GET', '/repos/{owner}/{repo}/releases', 'token', (ctx) => {
      const r = requireRepo(ctx);
      const list = ctx.state.releases
        .filter((x) => sameRepo(x, r.owner, r.name))
        .sort((a, b) => b.publishedAt.localeCompare(a.publishedAt));
      const { page, headers } = paginate(ctx, list);
      return { status: 200, body: page.map((x) => releaseShape(ctx.shapes, x)), headers };
    }),

    route('GET', '/repos/{owner}/{repo}/tags', 'token', (ctx) => {
      const r = requireRepo(ctx);
      const list = ctx.state.tags.filter((x) => sameRepo(x, r.owner, r.name)).reverse();
      const { page, headers } = paginate(ctx, list);
      return { status: 200, body: page.map((x) => tagShape(ctx.shapes, x)), headers };
    }),

    route('GET', '/repos/{owner}/{repo}/pulls/{number}/files', 'token', (ctx) => {
      const { r, p } = requirePull(ctx);
      const { page, headers } = paginate(ctx, p.files ?? []);
      return {
        status: 200,
        body: page.map((f) => fileShape(ctx.shapes, r.owner, r.name, p.headSha, f)),
        headers,
      };
    }),
  ];
}
