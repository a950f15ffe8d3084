/**
 * Record → REST shape builders: users, the App, repositories, installations (pull-shapes.ts and
 * activity-shapes.ts hold the rest). Return types come from GitHub's OpenAPI description
 * (`@octokit/openapi-types`, installed with probot), so the compiler holds field names and nesting to
 * what real GitHub sends.
 */
import { createHash } from 'node:crypto';
import type { components } from '@octokit/openapi-types';
import type { RepoRecord, StandInState } from './state.ts';

type S = components['schemas'];

export interface ShapeContext {
  /** API root as the client sees it, e.g. `http://127.0.0.1:1234` (no trailing slash). */
  api: string;
  /** Web root for `html_url`s, e.g. `https://github.com`. */
  html: string;
  app: { id: number; slug: string; name: string; owner: string };
  state: StandInState;
}

/** The URLs of issue or PR `number` of `owner/repo` in its issue view (`kind`: the page GitHub shows). */
export function issueUrls(
  ctx: ShapeContext,
  owner: string,
  repo: string,
  number: number,
  kind: 'pull' | 'issues',
) {
  const repositoryUrl = `${ctx.api}/repos/${owner}/${repo}`;
  const url = `${repositoryUrl}/issues/${number}`;
  return {
    url,
    repository_url: repositoryUrl,
    labels_url: `${url}/labels{/name}`,
    comments_url: `${url}/comments`,
    events_url: `${url}/events`,
    html_url: `${ctx.html}/${owner}/${repo}/${kind}/${number}`,
  };
}

/** The `pull_request` links of PR `number`'s issue view (its merge time beside them). */
export function pullLinks(
  ctx: ShapeContext,
  owner: string,
  repo: string,
  number: number,
  mergedAt: string | null,
) {
  const html = `${ctx.html}/${owner}/${repo}/pull/${number}`;
  return {
    url: `${ctx.api}/repos/${owner}/${repo}/pulls/${number}`,
    html_url: html,
    diff_url: `${html}.diff`,
    patch_url: `${html}.patch`,
    merged_at: mergedAt,
  };
}

/** Stable numeric id for a login, so the same user keeps the same id across calls. */
export function userId(login: string): number {
  return createHash('sha256').update(login.toLowerCase()).digest().readUInt32BE(0) % 100_000_000;
}

export function user(ctx: ShapeContext, login: string, type?: string): S['simple-user'] {
  const url = `${ctx.api}/users/${login}`;
  return {
    login,
    id: userId(login),
    node_id: Buffer.from(`04:User${userId(login)}`).toString('base64'),
    avatar_url: `https://avatars.githubusercontent.com/u/${userId(login)}?v=4`,
    gravatar_id: '',
    url,
    html_url: `${ctx.html}/${login}`,
    followers_url: `${url}/followers`,
    following_url: `${url}/following{/other_user}`,
    gists_url: `${url}/gists{/gist_id}`,
    starred_url: `${url}/starred{/owner}{/repo}`,
    subscriptions_url: `${url}/subscriptions`,
    organizations_url: `${url}/orgs`,
    repos_url: `${url}/repos`,
    events_url: `${url}/events{/privacy}`,
    received_events_url: `${url}/received_events`,
    type: type ?? (login.endsWith('[bot]') ? 'Bot' : 'User'),
    site_admin: false,
  };
}

const APP_PERMISSIONS: S['app-permissions'] = {
  checks: 'write',
  contents: 'write',
  issues: 'write',
  pull_requests: 'write',
  metadata: 'read',
  actions: 'write',
};
const APP_EVENTS = ['pull_request', 'issue_comment', 'check_run', 'installation', 'workflow_run'];

export function app(ctx: ShapeContext): S['integration'] {
  const { id, slug, name, owner } = ctx.app;
  return {
    id,
    slug,
    node_id: Buffer.from(`03:App${id}`).toString('base64'),
    client_id: `Iv1.${id.toString(16).padStart(16, '0')}`,
    owner: user(ctx, owner, 'Organization'),
    name,
    description: 'Tandem (test stand-in)',
    external_url: `${ctx.html}/apps/${slug}`,
    html_url: `${ctx.html}/apps/${slug}`,
    created_at: '2024-01-01T00:00:00Z',
    updated_at: '2024-01-01T00:00:00Z',
    permissions: APP_PERMISSIONS as Record<string, string>,
    events: APP_EVENTS,
  };
}

export function botLogin(ctx: ShapeContext): string {
  return `${ctx.app.slug}[bot]`;
}

/** The templated `*_url` fields of a repository (the compiler checks the list is complete). */
type RepoUrlKey = Exclude<
  Extract<keyof S['repository'], `${string}_url`>,
  'html_url' | 'clone_url' | 'git_url' | 'ssh_url' | 'svn_url' | 'mirror_url'
>;

const REPO_URL_KEYS: Record<RepoUrlKey, string> = {
  archive_url: '/{archive_format}{/ref}',
  assignees_url: '/assignees{/user}',
  blobs_url: '/git/blobs{/sha}',
  branches_url: '/branches{/branch}',
  collaborators_url: '/collaborators{/collaborator}',
  comments_url: '/comments{/number}',
  commits_url: '/commits{/sha}',
  compare_url: '/compare/{base}...{head}',
  contents_url: '/contents/{+path}',
  contributors_url: '/contributors',
  deployments_url: '/deployments',
  downloads_url: '/downloads',
  events_url: '/events',
  forks_url: '/forks',
  git_commits_url: '/git/commits{/sha}',
  git_refs_url: '/git/refs{/sha}',
  git_tags_url: '/git/tags{/sha}',
  hooks_url: '/hooks',
  issue_comment_url: '/issues/comments{/number}',
  issue_events_url: '/issues/events{/number}',
  issues_url: '/issues{/number}',
  keys_url: '/keys{/key_id}',
  labels_url: '/labels{/name}',
  languages_url: '/languages',
  merges_url: '/merges',
  milestones_url: '/milestones{/number}',
  notifications_url: '/notifications{?since,all,participating}',
  pulls_url: '/pulls{/number}',
  releases_url: '/releases{/id}',
  stargazers_url: '/stargazers',
  statuses_url: '/statuses/{sha}',
  subscribers_url: '/subscribers',
  subscription_url: '/subscription',
  tags_url: '/tags',
  teams_url: '/teams',
  trees_url: '/git/trees{/sha}',
};

export function repository(ctx: ShapeContext, r: RepoRecord): S['repository'] {
  const url = `${ctx.api}/repos/${r.owner}/${r.name}`;
  const urls = Object.fromEntries(
    Object.entries(REPO_URL_KEYS).map(([k, suffix]) => [k, url + suffix]),
  ) as Record<RepoUrlKey, string>;
  const html = `${ctx.html}/${r.owner}/${r.name}`;
  const openIssues = ctx.state.pulls.filter(
    (p) => p.owner === r.owner && p.repo === r.name && p.state === 'open',
  ).length;
  return {
    ...urls,
    id: r.id,
    node_id: Buffer.from(`010:Repository${r.id}`).toString('base64'),
    name: r.name,
    full_name: `${r.owner}/${r.name}`,
    owner: user(ctx, r.owner, ctx.state.installationFor(r.owner)?.accountType ?? 'Organization'),
    private: r.private,
    visibility: r.private ? 'private' : 'public',
    html_url: html,
    description: null,
    fork: false,
    url,
    git_url: `git://github.com/${r.owner}/${r.name}.git`,
    ssh_url: `git@github.com:${r.owner}/${r.name}.git`,
    clone_url: r.cloneUrl,
    svn_url: html,
    mirror_url: null,
    homepage: null,
    language: 'TypeScript',
    license: null,
    forks: 0,
    forks_count: 0,
    stargazers_count: 0,
    watchers_count: 0,
    watchers: 0,
    size: 1,
    default_branch: r.defaultBranch,
    open_issues_count: openIssues,
    open_issues: openIssues,
    is_template: false,
    topics: [],
    has_issues: true,
    has_projects: false,
    has_wiki: false,
    has_pages: false,
    has_downloads: true,
    has_discussions: false,
    archived: false,
    disabled: false,
    pushed_at: r.createdAt,
    created_at: r.createdAt,
    updated_at: r.createdAt,
    allow_forking: true,
    web_commit_signoff_required: false,
  };
}

export function installation(ctx: ShapeContext, id: number): S['installation'] | undefined {
  const inst = ctx.state.installations.get(id);
  if (!inst) return undefined;
  return {
    id: inst.id,
    account: user(ctx, inst.account, inst.accountType) as S['installation']['account'],
    repository_selection: 'all',
    access_tokens_url: `${ctx.api}/app/installations/${inst.id}/access_tokens`,
    repositories_url: `${ctx.api}/installation/repositories`,
    html_url: `${ctx.html}/organizations/${inst.account}/settings/installations/${inst.id}`,
    app_id: ctx.app.id,
    target_id: userId(inst.account),
    target_type: inst.accountType,
    permissions: APP_PERMISSIONS,
    events: APP_EVENTS,
    created_at: '2024-01-01T00:00:00Z',
    updated_at: '2024-01-01T00:00:00Z',
    single_file_name: null,
    app_slug: ctx.app.slug,
    suspended_by: null,
    suspended_at: null,
  };
}
