/**
 * The GitHub port (`port/github-port.ts`) over Octokit: each operation is one of src/github's
 * functions, its result parsed with the port's schemas. One port per client (kept in a WeakMap),
 * so rooms that still pass the Octokit around get the same port back for it.
 */
import { z } from 'zod';
import type { PullRef } from '../../core/pull-ref.ts';
import { tandemChecksOn } from '../../github/check-run-lookup.ts';
import { completeCheckRun, createQueuedCheckRun, reopenCheckRun } from '../../github/check-runs.ts';
import { type GitHub, repoId } from '../../github/octokit.ts';
import { loadOrgConfig } from '../../github/org-config.ts';
import { authenticatedCloneUrl, canWrite, reactToComment } from '../../github/permissions.ts';
import {
  branchTip,
  getPull,
  getRepo,
  openPullsWithHead,
  searchLinkingPulls,
} from '../../github/pull-requests.ts';
import { fetchSuite } from '../../github/suite-fetch.ts';
import {
  checkRunIdSchema,
  foundCheckRunSchema,
  type GitHubPort,
  pullRefSchema,
  repoInfoSchema,
  shaSchema,
} from './github-port.ts';

const ports = new WeakMap<GitHub, GitHubPort>();

/** The port over `gh` (the same object for the same client). */
export function octokitPort(gh: GitHub): GitHubPort {
  let port = ports.get(gh);
  if (!port) {
    port = build(gh);
    ports.set(gh, port);
  }
  return port;
}

function build(gh: GitHub): GitHubPort {
  return {
    octokit: gh,
    pull: (ref: PullRef) => getPull(gh, ref),
    openPullsWithHead: (repo, headRef) => openPullsWithHead(gh, repoId(repo), headRef),
    searchLinkingPulls: async (org, to) => {
      const found = await searchLinkingPulls(gh, org, to);
      // Search hits are hints the caller re-reads: one that does not parse is dropped, not fatal.
      return found?.flatMap((r) => {
        const p = pullRefSchema.safeParse(r);
        return p.success ? [p.data] : [];
      });
    },
    repo: async (name) => repoInfoSchema.parse(await getRepo(gh, repoId(name))),
    branchTip: async (repo, branch) => shaSchema.parse(await branchTip(gh, repoId(repo), branch)),
    authenticatedCloneUrl: (url) => authenticatedCloneUrl(gh, url),
    canWrite: async (repo, login) => z.boolean().parse(await canWrite(gh, repoId(repo), login)),
    react: (repo, commentId, content) => reactToComment(gh, repoId(repo), commentId, content),
    orgConfig: (org) => loadOrgConfig(gh, org),
    fetchSuite: (evaluator, path, root) => fetchSuite(gh, repoId(evaluator), path, root),
    createQueuedCheck: async (repo, headSha, externalId, summary) =>
      checkRunIdSchema.parse(await createQueuedCheckRun(gh, repoId(repo), headSha, externalId, summary)),
    reopenCheck: (repo, id, summary) => reopenCheckRun(gh, repoId(repo), id, summary),
    completeCheck: (repo, id, conclusion, out, opts) =>
      completeCheckRun(gh, repoId(repo), id, conclusion, out, opts ?? {}),
    tandemChecksOn: async (repo, headSha, externalId) =>
      z.array(foundCheckRunSchema).parse(await tandemChecksOn(gh, repoId(repo), headSha, externalId)),
  };
}
