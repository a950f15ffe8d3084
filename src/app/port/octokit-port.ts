/**
 * The GitHub port (`port/github-port.ts`) over Octokit: each operation is one of src/github's
 * functions, its result parsed with the port's schemas. One port per client (kept in a WeakMap),
 * so rooms that still pass the Octokit around get the same port back for it.
 */
import { z } from 'zod';
import type { PullRef } from '../../core/pull-ref.ts';
import {
  dispatchWorkflow,
  downloadRunArtifact,
  getWorkflowRun,
  linkCheckRun,
  recentWorkflowRuns,
  workflowRunInfoSchema,
} from '../../github/actions.ts';
import { tandemChecksOn } from '../../github/check-run-lookup.ts';
import {
  completeCheckRun,
  createQueuedCheckRun,
  markInProgress,
  reopenCheckRun,
} from '../../github/check-runs.ts';
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
  artifactZipSchema,
  checkLinkSchema,
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
    markInProgress: (repo, id, summary) => markInProgress(gh, repoId(repo), id, summary),
    linkCheck: (repo, id, link) => linkCheckRun(gh, repoId(repo), id, checkLinkSchema.parse(link)),
    dispatchWorkflow: (repo, workflow, ref, inputs) =>
      dispatchWorkflow(gh, repoId(repo), workflow, ref, z.record(z.string(), z.string()).parse(inputs)),
    workflowRun: async (repo, runId) =>
      workflowRunInfoSchema.optional().parse(await getWorkflowRun(gh, repoId(repo), runId)),
    recentWorkflowRuns: async (repo, workflow, since) =>
      z.array(workflowRunInfoSchema).parse(await recentWorkflowRuns(gh, repoId(repo), workflow, since)),
    runArtifact: async (repo, runId, name) =>
      artifactZipSchema.optional().parse(await downloadRunArtifact(gh, repoId(repo), runId, name)),
  };
}
