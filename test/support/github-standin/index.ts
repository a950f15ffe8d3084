/**
 * A local, stateful stand-in for GitHub's REST API, for end-to-end tests of the App and the Action.
 *
 * `startGitHubStandIn(opts?) => Promise<StandIn>` listens on 127.0.0.1:<random port> and serves the API
 * at `/` and under `/api/v3` (Probot with `GHE_HOST=<standIn.host>`, `GHE_PROTOCOL=http`).
 *
 * Options: `appId` (default TEST_APP_ID), `appSlug` ('tandem'), `publicKey` (default: app-keys.ts's),
 * `tokens` (static token → login, e.g. `{ 'test-token': 'octocat' }`; such callers have no
 * installation: they can read but not write check runs), `htmlUrl` (default 'https://github.com').
 *
 * Auth: `/app*`, `/repos/{o}/{r}/installation`, `/orgs/{org}/installation` need the App JWT (RS256,
 * verified with the public key, `iss` = appId); everything else an installation token (from
 * `POST /app/installations/{id}/access_tokens`) or a static token. Installation tokens see only their
 * installation's repositories (404 otherwise); comments they write are by `<slug>[bot]` with
 * `performed_via_github_app` set.
 *
 * Seeding and inspection (in-process): `addRepo({owner, name, cloneUrl?, defaultBranch?, private?})`
 * (also installs the App on `owner`), `addInstallation({account, id?, accountType?})`,
 * `installationId(owner)`, `addPullRequest({...})` and `updatePullRequest(owner, repo, n, patch)`
 * (both return the REST PR object), `pullRequest(owner, repo, n)`, `repository(owner, repo)`,
 * `addComment(owner, repo, n, {body, user})`, `addIssue({owner, repo, title, body?})`,
 * `crossReference(target, sourcePr)` (timeline events; PR seeds take `mergedAt`, `commits`, `mergeCommitSha`,
 * `files` with their patches), `addRelease({owner, repo, tagName, …})`, `addTag({owner, repo, name, sha})`,
 * `setFile(owner, repo, path, content, ref?)`,
 * `setPermission(owner, repo, user, perm)`, `addArtifact({owner, repo, runId, name, zip})`,
 * `addWorkflowRun({owner, repo, workflowId, displayTitle, ...})` and `updateWorkflowRun(id, patch)`
 * (both return the REST run, as `workflow_run` webhooks carry it; the stand-in runs no workflows),
 * `comments(owner, repo, n)`, `checkRuns(owner, repo, sha?)`, `reactions(commentId?)`,
 * `requests` (log), `dispatches`, `mintToken(installationId)`, `state` (raw records).
 *
 * Git and landing (real bare repositories, `setGitDir`): refs, the merges API, git commits, opening
 * PRs (routes/git-refs.ts, routes/git-objects.ts), rulesets' bypass (routes/rulesets.ts), GitHub's
 * merge queue over GraphQL (routes/merge-queue.ts; `failMergeQueue`), `refuseRefUpdate` (ref-updates.ts).
 *
 * Fault injection: `rateLimitNext(n, 'primary' | 'secondary')` — the next n API requests answer 403
 * `x-ratelimit-remaining: 0` with a reset 2 s ahead (primary) or 429 `retry-after: 1` (secondary);
 * `failNext({status, count?, method?, path?, message?})`; option `secondaryLimits` simulates GitHub's
 * 80 content-creating requests a minute (403 with `retry-after` past it; `secondaryLimited` counts them). Every answer carries `x-ratelimit-*` and
 * `x-github-request-id`; errors are GitHub's `{message, documentation_url, status}`.
 */
import type { KeyObject } from 'node:crypto';
import { createPublicKey } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { components } from '@octokit/openapi-types';
import { appKeys, TEST_APP_ID } from '../app-keys.ts';
import * as activity from './activity-shapes.ts';
import { TokenBook } from './auth.ts';
import * as pulls from './pull-shapes.ts';
import { actionRoutes, workflowRunShape } from './routes/actions.ts';
import { appRoutes } from './routes/app.ts';
import { checkRoutes } from './routes/checks.ts';
import { gitObjectRoutes } from './routes/git-objects.ts';
import { gitRefRoutes } from './routes/git-refs.ts';
import { historyRoutes } from './routes/history.ts';
import { issueRoutes } from './routes/issues.ts';
import { mergeQueueRoutes } from './routes/merge-queue.ts';
import { mergeRoutes } from './routes/merges.ts';
import { releaseRoutes } from './routes/releases.ts';
import { repoRoutes } from './routes/repos.ts';
import { rulesetRoutes } from './routes/rulesets.ts';
import { type HoldRule, Pipeline } from './server.ts';
import * as shape from './shapes.ts';
import {
  now,
  type Permission,
  type PullCommitRecord,
  type PullFileRecord,
  type PullRecord,
  type RepoSeed,
  repoKey,
  StandInState,
  type WorkflowRunRecord,
} from './state.ts';

export type { Permission, RequestLogEntry } from './state.ts';
export { StandInState } from './state.ts';

type S = components['schemas'];

export interface StandInOptions {
  appId?: number;
  appSlug?: string;
  appName?: string;
  publicKey?: KeyObject | string;
  tokens?: Record<string, string>;
  htmlUrl?: string;
  /**
   * GitHub's secondary limits, simulated (off by default so other tests are not slowed): past
   * `contentPerMinute` content-creating requests (POSTs of comments, issues, pulls, merges,
   * reviews) in any minute, such a request answers 403 "secondary rate limit" with `retry-after`.
   */
  secondaryLimits?: { contentPerMinute: number };
  /** The primary limit `x-ratelimit-limit` reports for core requests (default 5,000 an hour). */
  coreLimit?: number;
}

export interface PullRequestSeed {
  owner: string;
  repo: string;
  number?: number;
  title: string;
  body?: string | null;
  headRef: string;
  headSha: string;
  /** For PRs from forks: where the head branch lives. Default: the base repository. */
  headRepo?: { owner: string; name: string };
  baseRef?: string;
  baseSha: string;
  user?: string;
  state?: 'open' | 'closed';
  draft?: boolean;
  merged?: boolean;
  /** When it was merged (ISO); default now. Mining filters and windows by it. */
  mergedAt?: string;
  /** `GET …/pulls/{n}/commits`, oldest first; default the head commit alone. */
  commits?: PullCommitRecord[];
  mergeCommitSha?: string;
  /** `GET …/pulls/{n}/files` (each with its `patch`); default none. */
  files?: PullFileRecord[];
}

export interface IssueSeed {
  owner: string;
  repo: string;
  number?: number;
  title: string;
  body?: string | null;
  state?: 'open' | 'closed';
  user?: string;
}

export type PullRequestPatch = Partial<
  Pick<
    PullRecord,
    'title' | 'body' | 'headRef' | 'headSha' | 'baseRef' | 'baseSha' | 'state' | 'draft' | 'merged'
  >
>;

export async function startGitHubStandIn(opts: StandInOptions = {}) {
  const state = new StandInState();
  const appId = opts.appId ?? TEST_APP_ID;
  const appSlug = opts.appSlug ?? 'tandem';
  const publicKey =
    typeof opts.publicKey === 'string'
      ? createPublicKey(opts.publicKey)
      : (opts.publicKey ?? appKeys().publicKey);
  const tokens = new TokenBook(
    appId,
    publicKey,
    new Map(Object.entries(opts.tokens ?? {})),
    `${appSlug}[bot]`,
  );
  const shapes: shape.ShapeContext = {
    api: '',
    html: (opts.htmlUrl ?? 'https://github.com').replace(/\/$/, ''),
    app: { id: appId, slug: appSlug, name: opts.appName ?? 'Tandem', owner: 'tandem-dev' },
    state,
  };
  const routes = [
    ...appRoutes(tokens),
    // Before repoRoutes: `branches/{branch+}` would swallow `…/protection/required_status_checks`.
    ...mergeRoutes(),
    ...gitRefRoutes(),
    ...gitObjectRoutes(),
    ...rulesetRoutes(),
    ...mergeQueueRoutes(),
    ...repoRoutes(),
    ...issueRoutes(),
    ...checkRoutes(),
    ...actionRoutes(),
    ...historyRoutes(),
    ...releaseRoutes(),
  ];
  const pipeline = new Pipeline(
    routes,
    tokens,
    state,
    shapes,
    { rateLimit: { remaining: 0, kind: 'primary' }, failures: [], holds: [] },
    {
      ...(opts.secondaryLimits ? { contentPerMinute: opts.secondaryLimits.contentPerMinute } : {}),
      core: opts.coreLimit ?? 5000,
    },
  );
  const server = createServer((req, res) => {
    pipeline.handle(req, res).catch((err) => {
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ message: String(err) }));
    });
  });
  server.keepAliveTimeout = 1000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  shapes.api = url;

  const requirePull = (owner: string, repo: string, n: number) => {
    const p = state.pull(owner, repo, n);
    if (!p) throw new Error(`stand-in: no PR ${owner}/${repo}#${n}`);
    return p;
  };
  /** What a new issue and a new PR share: identity, number (the next unless seeded), text, author. */
  const issueFields = (seed: {
    owner: string;
    repo: string;
    number?: number;
    title: string;
    body?: string | null;
    user?: string;
  }) => {
    const r = state.repo(seed.owner, seed.repo);
    if (!r) throw new Error(`stand-in: add repository ${seed.owner}/${seed.repo} first`);
    const fields = {
      id: state.newId(),
      owner: r.owner,
      repo: r.name,
      number: seed.number ?? state.nextNumber(r.owner, r.name),
      title: seed.title,
      body: seed.body ?? null,
      user: seed.user ?? 'octocat',
    };
    return { r, fields };
  };
  const commentsOf = (owner: string, repo: string, n: number) =>
    state.commentList.filter((c) => repoKey(c.owner, c.repo) === repoKey(owner, repo) && c.issueNumber === n);

  return {
    url,
    /** Base URL for `/api/v3` clients (GHES layout). */
    apiUrl: `${url}/api/v3`,
    /** `127.0.0.1:<port>`, for `GHE_HOST`. */
    host: `127.0.0.1:${port}`,
    appId,
    appSlug,
    botLogin: `${appSlug}[bot]`,
    state,
    requests: state.requests,
    dispatches: state.dispatches,

    addInstallation: (input: { account: string; id?: number; accountType?: 'Organization' | 'User' }) =>
      state.addInstallation(input),
    installationId(owner: string): number {
      const inst = state.installationFor(owner);
      if (!inst) throw new Error(`stand-in: App not installed on ${owner}`);
      return inst.id;
    },
    addRepo(input: RepoSeed) {
      return shape.repository(shapes, state.addRepo(input));
    },
    repository(owner: string, repo: string): S['repository'] {
      const r = state.repo(owner, repo);
      if (!r) throw new Error(`stand-in: no repository ${owner}/${repo}`);
      return shape.repository(shapes, r);
    },
    addPullRequest(seed: PullRequestSeed): S['pull-request'] {
      const { r, fields } = issueFields(seed);
      const at = now();
      const merged = seed.merged ?? false;
      const mergedAt = merged ? (seed.mergedAt ?? at) : null;
      const rec: PullRecord = {
        ...fields,
        state: merged ? 'closed' : (seed.state ?? 'open'),
        draft: seed.draft ?? false,
        merged,
        mergedAt,
        closedAt: mergedAt ?? (seed.state === 'closed' ? at : null),
        headRef: seed.headRef,
        headSha: seed.headSha,
        headRepo: seed.headRepo ?? { owner: r.owner, name: r.name },
        baseRef: seed.baseRef ?? r.defaultBranch,
        baseSha: seed.baseSha,
        createdAt: mergedAt ?? at,
        updatedAt: mergedAt ?? at,
        ...(seed.commits ? { commits: seed.commits } : {}),
        ...(seed.mergeCommitSha ? { mergeCommitSha: seed.mergeCommitSha } : {}),
        ...(seed.files ? { files: seed.files } : {}),
      };
      if (state.pull(r.owner, r.name, rec.number)) throw new Error(`stand-in: PR #${rec.number} exists`);
      state.pulls.push(rec);
      return pulls.pullRequest(shapes, rec);
    },
    updatePullRequest(owner: string, repo: string, n: number, patch: PullRequestPatch): S['pull-request'] {
      const p = requirePull(owner, repo, n);
      const at = now();
      Object.assign(p, patch, { updatedAt: at });
      if (patch.merged) Object.assign(p, { state: 'closed', mergedAt: p.mergedAt ?? at });
      if (p.state === 'closed') p.closedAt = p.closedAt ?? at;
      else p.closedAt = null;
      return pulls.pullRequest(shapes, p);
    },
    pullRequest: (owner: string, repo: string, n: number) =>
      pulls.pullRequest(shapes, requirePull(owner, repo, n)),
    /** A plain issue (numbers shared with the repository's PRs). */
    addIssue(seed: IssueSeed) {
      const { fields } = issueFields(seed);
      const at = now();
      const rec = {
        ...fields,
        state: seed.state ?? 'open',
        createdAt: at,
        updatedAt: at,
        closedAt: seed.state === 'closed' ? at : null,
      };
      state.issues.push(rec);
      return rec;
    },
    /** A `cross-referenced` timeline event on `target` from PR `source` (e.g. linked in the sidebar). */
    crossReference(
      target: { owner: string; repo: string; number: number },
      source: { owner: string; repo: string; number: number },
    ) {
      state.crossReferences.push({ target, source, createdAt: now() });
    },
    /** A GitHub release of `tagName` (published now unless said). */
    addRelease(input: {
      owner: string;
      repo: string;
      tagName: string;
      targetCommitish?: string;
      publishedAt?: string;
    }) {
      const rec = {
        id: state.newId(),
        owner: input.owner,
        repo: input.repo,
        tagName: input.tagName,
        targetCommitish: input.targetCommitish ?? 'main',
        name: input.tagName,
        publishedAt: input.publishedAt ?? now(),
      };
      state.releases.push(rec);
      return rec;
    },
    /** A tag on `sha`, as `GET …/tags` lists it (newest first). */
    addTag(input: { owner: string; repo: string; name: string; sha: string }) {
      state.tags.push({ ...input });
    },
    addComment(
      owner: string,
      repo: string,
      n: number,
      input: { body: string; user: string; viaApp?: boolean },
    ) {
      const p = requirePull(owner, repo, n);
      const at = now();
      const rec = {
        id: state.newId(),
        owner: p.owner,
        repo: p.repo,
        issueNumber: n,
        body: input.body,
        user: input.user,
        viaApp: input.viaApp ?? false,
        createdAt: at,
        updatedAt: at,
      };
      state.commentList.push(rec);
      return activity.issueComment(shapes, rec);
    },
    setFile: (owner: string, repo: string, path: string, content: string | Buffer, ref?: string) =>
      state.setFile(owner, repo, path, content, ref),
    setPermission: (owner: string, repo: string, user: string, perm: Permission) =>
      state.setPermission(owner, repo, user, perm),
    addArtifact(input: { owner: string; repo: string; runId: number; name: string; zip: Buffer }) {
      const rec = { ...input, id: state.newId(), createdAt: now() };
      state.artifacts.push(rec);
      return rec;
    },
    addWorkflowRun(input: {
      owner: string;
      repo: string;
      workflowId: string;
      displayTitle: string;
      name?: string;
      event?: string;
      status?: WorkflowRunRecord['status'];
      conclusion?: string | null;
      headSha?: string;
    }) {
      const r = state.repo(input.owner, input.repo);
      if (!r) throw new Error(`stand-in: no repository ${input.owner}/${input.repo}`);
      const at = now();
      const rec: WorkflowRunRecord = {
        id: state.newId(),
        owner: r.owner,
        repo: r.name,
        workflowId: input.workflowId,
        name: input.name ?? 'Tandem',
        displayTitle: input.displayTitle,
        event: input.event ?? 'workflow_dispatch',
        status: input.status ?? 'queued',
        conclusion: input.conclusion ?? null,
        headBranch: r.defaultBranch,
        headSha: input.headSha ?? '0'.repeat(40),
        runAttempt: 1,
        createdAt: at,
        updatedAt: at,
      };
      state.workflowRuns.push(rec);
      return workflowRunShape(shapes, rec);
    },
    updateWorkflowRun(
      id: number,
      patch: Partial<Pick<WorkflowRunRecord, 'status' | 'conclusion' | 'displayTitle'>>,
    ) {
      const rec = state.workflowRuns.find((w) => w.id === id);
      if (!rec) throw new Error(`stand-in: no workflow run ${id}`);
      Object.assign(rec, patch, { updatedAt: now() });
      return workflowRunShape(shapes, rec);
    },
    comments: (owner: string, repo: string, n: number) =>
      commentsOf(owner, repo, n).map((c) => activity.issueComment(shapes, c)),
    checkRuns: (owner: string, repo: string, sha?: string) =>
      state.checkRunList
        .filter((c) => repoKey(c.owner, c.repo) === repoKey(owner, repo) && (!sha || c.headSha === sha))
        .map((c) => ({ ...activity.checkRun(shapes, c), history: c.history })),
    reactions: (commentId?: number) =>
      state.reactionList.filter((r) => commentId === undefined || r.commentId === commentId),
    mintToken: (installationId: number) => tokens.mint(installationId).token,

    /** Requests the simulated secondary limit (`secondaryLimits`) answered 403. */
    get secondaryLimited(): number {
      return pipeline.secondaryLimited;
    },
    rateLimitNext(n: number, kind: 'primary' | 'secondary' = 'primary'): void {
      pipeline.injections.rateLimit = { remaining: n, kind };
    },
    failNext(rule: {
      status: number;
      count?: number;
      method?: string;
      path?: RegExp | string;
      message?: string;
    }) {
      pipeline.injections.failures.push({ ...rule, remaining: rule.count ?? 1 });
    },
    /**
     * Holds every request the rule matches unanswered until `release()` (GitHub slow on one
     * route, or a content budget spent); `waiting()`: how many wait now.
     */
    hold(rule: { method?: string; path?: RegExp | string }): { waiting: () => number; release: () => void } {
      let resolve = () => {};
      const released = new Promise<void>((r) => {
        resolve = r;
      });
      const held: HoldRule = {
        ...rule,
        waiting: 0,
        done: false,
        released,
        release: () => {
          held.done = true;
          resolve();
        },
      };
      pipeline.injections.holds.push(held);
      return { waiting: () => held.waiting, release: held.release };
    },
    close(): Promise<void> {
      // Nothing stays waiting on a closed stand-in.
      for (const h of pipeline.injections.holds) h.release();
      server.closeAllConnections();
      return new Promise((resolve, reject) => server.close((err) => (err ? reject(err) : resolve())));
    },
  };
}

export type StandIn = Awaited<ReturnType<typeof startGitHubStandIn>>;
