/**
 * What merging a pull request touches on GitHub: `PUT …/pulls/{n}/merge` with GitHub's refusals
 * (405 not mergeable or a required check not passing, 409 when `sha` is not the head, 404), the
 * base branch's required checks from branch protection
 * (`GET …/branches/{b}/protection/required_status_checks`, 404 when none) and from rulesets
 * (`GET …/rules/branches/{b}`), and a commit's combined status (`GET …/commits/{ref}/status`).
 *
 * A repository backed by a real bare git repository (`setGitDir`) merges for real: a merge
 * commit of the base branch's tip and the head is written and the branch moved in that
 * repository (`git merge-tree` + `commit-tree` + `update-ref`), so clones see the merge; a
 * conflict answers 405 as GitHub does. The new tip is also published for `GET …/branches/{b}`.
 *
 * Branch protection's endpoint is administration: an installation token gets 403, as an App
 * without `administration` (Tandem asks for none) does on GitHub; the branch itself
 * (`GET …/branches/{b}`, repos.ts) tells its required contexts to anyone who can read it.
 *
 * Seeding (in-process): `setGitDir(state, owner, repo, bareDir)`,
 * `requireChecks(state, owner, repo, branch, contexts, via)` (branch-rules.ts),
 * `setCommitStatus(state, owner, repo, sha, context, state)`.
 */
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { git, gitOut } from '../../../../src/engine/git/git.ts';
import { requirementsOf, reviewsOf, ruleViolation } from '../branch-rules.ts';
import { HttpError, intParam, notFound, type Route, type RouteContext, route, validate } from '../http.ts';
import { repository } from '../shapes.ts';
import { markPullMerged, now, perState, type RepoRecord, repoKey, type StandInState } from '../state.ts';
import { requirePull, requireRepo, setBranch } from './repos.ts';

export { addReview, requireChecks, requireMergeRules } from '../branch-rules.ts';

interface MergeWorld {
  gitDirs: Map<string, string>;
  statuses: Array<{
    id: number;
    repo: string;
    sha: string;
    context: string;
    state: CommitState;
    at: string;
  }>;
}

type CommitState = 'error' | 'failure' | 'pending' | 'success';

const world = perState((): MergeWorld => ({ gitDirs: new Map(), statuses: [] }));

/** Backs a repository with a bare git repository: merges then happen in it for real. */
export function setGitDir(state: StandInState, owner: string, repo: string, bareDir: string): void {
  world(state).gitDirs.set(repoKey(owner, repo), bareDir);
}

/** The bare repository backing a repository, when a test set one. */
export function gitDirOf(state: StandInState, owner: string, repo: string): string | undefined {
  return world(state).gitDirs.get(repoKey(owner, repo));
}

/** A commit status (`POST …/statuses/{sha}` as CI would send it). */
export function setCommitStatus(
  state: StandInState,
  owner: string,
  repo: string,
  sha: string,
  context: string,
  commitState: CommitState,
): void {
  world(state).statuses.push({
    id: state.newId(),
    repo: repoKey(owner, repo),
    sha,
    context,
    state: commitState,
    at: now(),
  });
}

function requiredOf(state: StandInState, r: RepoRecord, branch: string) {
  return requirementsOf(state, r.owner, r.name, branch);
}

/** The newest status of each context on a commit, newest first (what GitHub combines). */
function latestStatuses(state: StandInState, r: RepoRecord, sha: string) {
  const seen = new Set<string>();
  return world(state)
    .statuses.filter((s) => s.repo === repoKey(r.owner, r.name) && s.sha === sha)
    .sort((a, b) => b.id - a.id)
    .filter((s) => !seen.has(s.context) && seen.add(s.context));
}

/** GitHub's own gate at merge time: the first required context not passing, as GitHub words it. */
function blockingCheck(state: StandInState, r: RepoRecord, branch: string, sha: string): string | undefined {
  const { protection, rules } = requiredOf(state, r, branch);
  for (const context of new Set([...protection, ...rules])) {
    const run = state.checkRunList
      .filter((c) => c.owner === r.owner && c.repo === r.name && c.headSha === sha && c.name === context)
      .sort((a, b) => b.id - a.id)[0];
    const status = latestStatuses(state, r, sha).find((s) => s.context === context);
    if (run) {
      if (run.status !== 'completed') return `Required status check "${context}" is in progress.`;
      if (!['success', 'neutral', 'skipped'].includes(run.conclusion ?? ''))
        return `Required status check "${context}" is failing.`;
    } else if (!status) return `Required status check "${context}" is expected.`;
    else if (status.state === 'pending') return `Required status check "${context}" is in progress.`;
    else if (status.state !== 'success') return `Required status check "${context}" is failing.`;
  }
  return undefined;
}

const MergeBody = z.object({
  commit_title: z.string().optional(),
  commit_message: z.string().optional(),
  sha: z.string().optional(),
  merge_method: z.enum(['merge', 'squash', 'rebase']).optional(),
});

const MERGE_ENV = {
  GIT_AUTHOR_NAME: 'GitHub',
  GIT_AUTHOR_EMAIL: 'noreply@github.com',
  GIT_COMMITTER_NAME: 'GitHub',
  GIT_COMMITTER_EMAIL: 'noreply@github.com',
};

/** A real merge commit in the bare repository, the branch moved to it; undefined on a conflict. */
async function mergeInGit(
  dir: string,
  base: string,
  head: string,
  message: string,
): Promise<string | undefined> {
  const tip = (await gitOut(['rev-parse', `refs/heads/${base}`], { cwd: dir })).trim();
  const tree = await git(['merge-tree', '--write-tree', tip, head], { cwd: dir, allowFailure: true });
  if (tree.code !== 0) return undefined;
  const treeSha = tree.stdout.split('\n')[0]!.trim();
  const commit = (
    await gitOut(['commit-tree', treeSha, '-p', tip, '-p', head, '-m', message], { cwd: dir, env: MERGE_ENV })
  ).trim();
  // Compare-and-swap, as GitHub's branch update is: a concurrent push makes this fail.
  await git(['update-ref', `refs/heads/${base}`, commit, tip], { cwd: dir });
  return commit;
}

async function merge(ctx: RouteContext) {
  const { r, p } = requirePull(ctx);
  const body = validate(MergeBody, ctx.body, 'PullRequest');
  if (p.state !== 'open') throw new HttpError(405, 'Pull Request is not mergeable');
  if (body.sha !== undefined && body.sha !== p.headSha)
    throw new HttpError(409, 'Head branch was modified. Review and try the merge again.');
  const blocked =
    blockingCheck(ctx.state, r, p.baseRef, p.headSha) ?? ruleViolation(ctx.state, r.owner, r.name, p);
  if (blocked) throw new HttpError(405, blocked);
  const message = `${body.commit_title ?? `Merge pull request #${p.number} from ${p.headRepo.owner}/${p.headRef}`}\n\n${body.commit_message ?? p.title}`;
  const dir = world(ctx.state).gitDirs.get(repoKey(r.owner, r.name));
  const sha = dir
    ? await mergeInGit(dir, p.baseRef, p.headSha, message)
    : createHash('sha1').update(`merge ${p.id} ${p.headSha}`).digest('hex');
  if (!sha) throw new HttpError(405, 'Pull Request is not mergeable');
  setBranch(ctx.state, r.owner, r.name, p.baseRef, sha);
  markPullMerged(p, sha);
  return { status: 200, body: { sha, merged: true, message: 'Pull Request successfully merged' } };
}

export function mergeRoutes(): Route[] {
  return [
    route('PUT', '/repos/{owner}/{repo}/pulls/{number}/merge', 'token', merge),

    route(
      'GET',
      '/repos/{owner}/{repo}/branches/{branch+}/protection/required_status_checks',
      'token',
      (ctx) => {
        const r = requireRepo(ctx);
        // Branch protection is administration: an App without that permission (Tandem's) is refused.
        if (ctx.caller.installationId !== undefined)
          throw new HttpError(403, 'Resource not accessible by integration');
        const branch = ctx.params.branch ?? '';
        const contexts = requiredOf(ctx.state, r, branch).protection;
        if (contexts.length === 0) throw new HttpError(404, 'Branch not protected');
        const url = `${ctx.shapes.api}/repos/${r.owner}/${r.name}/branches/${branch}/protection/required_status_checks`;
        return {
          status: 200,
          body: {
            url,
            strict: false,
            contexts,
            contexts_url: `${url}/contexts`,
            checks: contexts.map((context) => ({ context, app_id: null })),
          },
        };
      },
    ),

    route('GET', '/repos/{owner}/{repo}/rules/branches/{branch+}', 'token', (ctx) => {
      const r = requireRepo(ctx);
      const contexts = requiredOf(ctx.state, r, ctx.params.branch ?? '').rules;
      const rules =
        contexts.length === 0
          ? []
          : [
              {
                type: 'required_status_checks',
                parameters: {
                  required_status_checks: contexts.map((context) => ({ context })),
                  strict_required_status_checks_policy: false,
                },
                ruleset_source_type: 'Repository',
                ruleset_source: `${r.owner}/${r.name}`,
                ruleset_id: 42,
              },
            ];
      const merge = requiredOf(ctx.state, r, ctx.params.branch ?? '').merge;
      const source = {
        ruleset_source_type: 'Repository',
        ruleset_source: `${r.owner}/${r.name}`,
        ruleset_id: 43,
      };
      const more =
        merge?.via !== 'rules'
          ? []
          : [
              ...(merge.approvals || merge.codeOwners || merge.requirePullRequest
                ? [
                    {
                      type: 'pull_request',
                      parameters: {
                        required_approving_review_count: merge.approvals ?? 0,
                        require_code_owner_review: merge.codeOwners ?? false,
                        dismiss_stale_reviews_on_push: false,
                        require_last_push_approval: false,
                        required_review_thread_resolution: false,
                      },
                      ...source,
                    },
                  ]
                : []),
              ...(merge.signatures ? [{ type: 'required_signatures', ...source }] : []),
              ...(merge.noForcePush ? [{ type: 'non_fast_forward', ...source }] : []),
              ...(merge.mergeQueue
                ? [
                    {
                      type: 'merge_queue',
                      parameters: {
                        check_response_timeout_minutes: 60,
                        grouping_strategy: 'ALLGREEN',
                        max_entries_to_build: 5,
                        max_entries_to_merge: 5,
                        merge_method: 'MERGE',
                        min_entries_to_merge: 1,
                        min_entries_to_merge_wait_minutes: 5,
                      },
                      ...source,
                    },
                  ]
                : []),
            ];
      return { status: 200, body: [...rules, ...more] };
    }),

    // Branch protection is administration: an installation token gets 403 (Tandem asks for none).
    route('GET', '/repos/{owner}/{repo}/branches/{branch+}/protection', 'token', (ctx) => {
      const r = requireRepo(ctx);
      if (ctx.caller.installationId !== undefined)
        throw new HttpError(403, 'Resource not accessible by integration');
      const req = requiredOf(ctx.state, r, ctx.params.branch ?? '');
      if (req.protection.length === 0 && req.merge?.via !== 'protection')
        throw new HttpError(404, 'Branch not protected');
      const m = req.merge?.via === 'protection' ? req.merge : undefined;
      return {
        status: 200,
        body: {
          ...(m?.approvals || m?.codeOwners
            ? {
                required_pull_request_reviews: {
                  required_approving_review_count: m.approvals ?? 0,
                  require_code_owner_reviews: m.codeOwners ?? false,
                },
              }
            : {}),
          required_signatures: { enabled: m?.signatures ?? false },
        },
      };
    }),

    route('GET', '/repos/{owner}/{repo}/pulls/{number}/reviews', 'token', (ctx) => {
      const r = requireRepo(ctx);
      const n = intParam(ctx.params.number);
      if (!ctx.state.pull(r.owner, r.name, n)) throw notFound();
      const body = reviewsOf(ctx.state, r.owner, r.name, n).map((rv) => ({
        id: rv.id,
        node_id: Buffer.from(`PRR${rv.id}`).toString('base64'),
        user: { login: rv.user, id: 1, type: 'User' },
        body: '',
        state: rv.state,
        commit_id: rv.commitId,
        html_url: `${ctx.shapes.html}/${r.owner}/${r.name}/pull/${n}#pullrequestreview-${rv.id}`,
        pull_request_url: `${ctx.shapes.api}/repos/${r.owner}/${r.name}/pulls/${n}`,
        author_association: 'MEMBER',
        submitted_at: now(),
      }));
      return { status: 200, body };
    }),

    route('GET', '/repos/{owner}/{repo}/commits/{ref+}/status', 'token', (ctx) => {
      const r = requireRepo(ctx);
      const sha = ctx.params.ref ?? '';
      const api = `${ctx.shapes.api}/repos/${r.owner}/${r.name}`;
      const statuses = latestStatuses(ctx.state, r, sha).map((s) => ({
        id: s.id,
        node_id: Buffer.from(`StatusContext${s.id}`).toString('base64'),
        url: `${api}/statuses/${sha}`,
        avatar_url: null,
        state: s.state,
        description: null,
        target_url: null,
        context: s.context,
        created_at: s.at,
        updated_at: s.at,
      }));
      const states = statuses.map((s) => s.state);
      const combined =
        states.length === 0 || states.includes('pending')
          ? 'pending'
          : states.every((s) => s === 'success')
            ? 'success'
            : 'failure';
      return {
        status: 200,
        body: {
          state: combined,
          statuses,
          sha,
          total_count: statuses.length,
          repository: repository(ctx.shapes, r),
          commit_url: `${api}/commits/${sha}`,
          url: `${api}/commits/${sha}/status`,
        },
      };
    }),
  ];
}
