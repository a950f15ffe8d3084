/** Repository, pull request, contents and collaborator-permission routes. */

import { createHash } from 'node:crypto';
import { requirementsOf } from '../branch-rules.ts';
import { intParam, notFound, paginate, type Route, type RouteContext, route } from '../http.ts';
import { pullRequest } from '../pull-shapes.ts';
import { repository, user } from '../shapes.ts';
import type { PullRecord, RepoRecord, StandInState } from '../state.ts';
import { commitShape } from './history.ts';

/** Branch tips the tests publish (`setBranch`): `owner/repo` lower-cased → branch → SHA. */
const branchTips = new WeakMap<StandInState, Map<string, Map<string, string>>>();

/** Publishes a branch tip for `GET /repos/{o}/{r}/branches/{branch}` (unknown branches answer 404). */
export function setBranch(state: StandInState, owner: string, repo: string, branch: string, sha: string) {
  const repos = branchTips.get(state) ?? new Map<string, Map<string, string>>();
  branchTips.set(state, repos);
  const key = `${owner}/${repo}`.toLowerCase();
  repos.set(key, (repos.get(key) ?? new Map()).set(branch, sha));
}

/**
 * The repository named by the path, or 404 — also when an installation token asks for a repository
 * outside its installation, which is what GitHub answers.
 */
export function requireRepo(ctx: RouteContext): RepoRecord {
  const r = ctx.state.repo(ctx.params.owner ?? '', ctx.params.repo ?? '');
  if (!r) throw notFound();
  const inst = ctx.caller.installationId;
  if (inst !== undefined && r.installationId !== inst) throw notFound();
  return r;
}

/** The PR `{number}` of the route's repository (as `requireRepo`), or 404. */
export function requirePull(ctx: RouteContext): { r: RepoRecord; p: PullRecord } {
  const r = requireRepo(ctx);
  const p = ctx.state.pull(r.owner, r.name, intParam(ctx.params.number));
  if (!p) throw notFound();
  return { r, p };
}

/** Record `id` of repository `r` in `list`: 404 when missing or when it belongs to another repository. */
export function findInRepo<T extends { id: number; owner: string; repo: string }>(
  r: RepoRecord,
  list: T[],
  id: number,
): T {
  const found = list.find((x) => x.id === id && x.owner === r.owner && x.repo === r.name);
  if (!found) throw notFound();
  return found;
}

const gitSha = (buf: Buffer) =>
  createHash('sha1')
    .update(Buffer.concat([Buffer.from(`blob ${buf.length}\0`), buf]))
    .digest('hex');

function contents(ctx: RouteContext, r: RepoRecord) {
  const ref = ctx.query.get('ref') || r.defaultBranch;
  const path = (ctx.params.path ?? '').replace(/^\/+|\/+$/g, '');
  const tree = ctx.state.tree(r.owner, r.name, ref);
  if (!tree) throw notFound();
  const apiUrl = (p: string) => `${ctx.shapes.api}/repos/${r.owner}/${r.name}/contents/${p}?ref=${ref}`;
  const htmlUrl = (p: string, kind: string) => `${ctx.shapes.html}/${r.owner}/${r.name}/${kind}/${ref}/${p}`;
  const entry = (p: string, type: 'file' | 'dir', buf?: Buffer) => {
    const sha = buf ? gitSha(buf) : createHash('sha1').update(p).digest('hex');
    const self = apiUrl(p);
    const git = `${ctx.shapes.api}/repos/${r.owner}/${r.name}/git/${type === 'file' ? 'blobs' : 'trees'}/${sha}`;
    const html = htmlUrl(p, type === 'file' ? 'blob' : 'tree');
    return {
      type,
      size: buf?.length ?? 0,
      name: p.split('/').pop() ?? p,
      path: p,
      sha,
      url: self,
      git_url: git,
      html_url: html,
      download_url: type === 'file' ? `${ctx.shapes.api}/raw/${r.owner}/${r.name}/${ref}/${p}` : null,
      _links: { self, git, html },
    };
  };

  const file = tree.get(path);
  if (file) {
    const accept = String(ctx.headers.accept ?? '');
    // `mediaType: {format: 'raw'}` (Probot's config plugin) asks for the bytes themselves.
    if (accept.includes('.raw')) {
      return { status: 200, raw: file, contentType: 'application/vnd.github.raw; charset=utf-8' };
    }
    const b64 = file.toString('base64').replace(/.{60}/g, '$&\n');
    return { status: 200, body: { ...entry(path, 'file', file), encoding: 'base64', content: `${b64}\n` } };
  }
  // A directory: the direct children of `path` (root when empty), files and sub-directories.
  const prefix = path === '' ? '' : `${path}/`;
  const children = new Map<string, ReturnType<typeof entry>>();
  for (const [p, buf] of tree) {
    if (!p.startsWith(prefix)) continue;
    const rest = p.slice(prefix.length);
    const [head, ...more] = rest.split('/');
    const childPath = prefix + head;
    if (!children.has(childPath)) {
      children.set(childPath, more.length > 0 ? entry(childPath, 'dir') : entry(childPath, 'file', buf));
    }
  }
  if (children.size === 0) throw notFound();
  return { status: 200, body: [...children.values()].sort((a, b) => a.name.localeCompare(b.name)) };
}

export function repoRoutes(): Route[] {
  return [
    route('GET', '/repos/{owner}/{repo}', 'token', (ctx) => {
      const r = requireRepo(ctx);
      return {
        status: 200,
        body: {
          ...repository(ctx.shapes, r),
          permissions: { admin: false, maintain: false, push: false, triage: false, pull: true },
          // Required by GitHub's full-repository schema.
          network_count: 0,
          subscribers_count: 0,
        },
      };
    }),

    route('GET', '/repos/{owner}/{repo}/pulls', 'token', (ctx) => {
      const r = requireRepo(ctx);
      const state = ctx.query.get('state') ?? 'open';
      const head = ctx.query.get('head');
      const base = ctx.query.get('base');
      const direction = ctx.query.get('direction') ?? 'desc';
      const list = ctx.state.pulls
        .filter((p) => p.owner === r.owner && p.repo === r.name)
        .filter((p) => state === 'all' || p.state === state)
        .filter((p) => !head || `${p.headRepo.owner}:${p.headRef}`.toLowerCase() === head.toLowerCase())
        .filter((p) => !base || p.baseRef === base)
        .sort((a, b) => {
          // `sort=updated` (mining pages back until PRs are older than its window), else by number.
          const d =
            ctx.query.get('sort') === 'updated'
              ? a.updatedAt.localeCompare(b.updatedAt)
              : a.number - b.number;
          return direction === 'asc' ? d : -d;
        });
      const { page, headers } = paginate(ctx, list);
      return { status: 200, body: page.map((p) => pullRequest(ctx.shapes, p)), headers };
    }),

    route('GET', '/repos/{owner}/{repo}/pulls/{number}', 'token', (ctx) => {
      const { p } = requirePull(ctx);
      return { status: 200, body: pullRequest(ctx.shapes, p) };
    }),

    route('GET', '/repos/{owner}/{repo}/branches/{branch+}', 'token', (ctx) => {
      const r = requireRepo(ctx);
      const name = ctx.params.branch ?? '';
      const sha = branchTips.get(ctx.state)?.get(`${r.owner}/${r.name}`.toLowerCase())?.get(name);
      if (!sha) throw notFound();
      const api = `${ctx.shapes.api}/repos/${r.owner}/${r.name}`;
      const contexts = requirementsOf(ctx.state, r.owner, r.name, name).protection;
      return {
        status: 200,
        body: {
          name,
          commit: commitShape(ctx.shapes, r.owner, r.name, { sha, message: `tip of ${name}` }),
          _links: {
            self: `${api}/branches/${name}`,
            html: `${ctx.shapes.html}/${r.owner}/${r.name}/tree/${name}`,
          },
          protected: contexts.length > 0,
          protection: {
            enabled: contexts.length > 0,
            required_status_checks: {
              enforcement_level: contexts.length > 0 ? 'non_admins' : 'off',
              contexts,
              checks: contexts.map((context) => ({ context, app_id: null })),
            },
          },
          protection_url: `${api}/branches/${name}/protection`,
        },
      };
    }),

    route('GET', '/repos/{owner}/{repo}/contents', 'token', (ctx) => contents(ctx, requireRepo(ctx))),
    route('GET', '/repos/{owner}/{repo}/contents/{path+}', 'token', (ctx) => contents(ctx, requireRepo(ctx))),

    route('GET', '/repos/{owner}/{repo}/collaborators/{username}/permission', 'token', (ctx) => {
      const r = requireRepo(ctx);
      const login = ctx.params.username ?? '';
      // Without an explicit grant: public repositories are readable by anyone, private ones not.
      const role = ctx.state.permission(r.owner, r.name, login) ?? (r.private ? 'none' : 'read');
      const permission = role === 'maintain' ? 'write' : role === 'triage' ? 'read' : role;
      return {
        status: 200,
        body: { permission, role_name: role, user: { ...user(ctx.shapes, login), role_name: role } },
      };
    }),
  ];
}
