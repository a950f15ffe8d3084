/**
 * The GitHub port (`port/github-port.ts`) over Octokit: each operation is one of src/github's
 * functions, its result parsed with the port's schemas. One port per client (kept in a WeakMap),
 * so rooms that still pass the Octokit around (the merge queue) get the same port back for it,
 * and the client back for the port (`clientUnder`, for `queue-client.ts` only).
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
  updateCheckOutput,
} from '../../github/check-runs.ts';
import { checksOn, livePull, mergePull, requiredChecks } from '../../github/merge-pulls.ts';
import { readMemberFacts, readMergeRules } from '../../github/merge-rules-reads.ts';
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
import { COMMENT_MARKER, upsertStickyComment } from '../../github/sticky-comment.ts';
import { fetchSuite } from '../../github/suite-fetch.ts';
import {
  artifactZipSchema,
  checkLinkSchema,
  checkRunIdSchema,
  commentWriteSchema,
  foundCheckRunSchema,
  type GitHubPort,
  headChecksSchema,
  liveMemberSchema,
  memberFactsSchema,
  mergeAnswerSchema,
  mergeRulesSchema,
  pullRefSchema,
  repoInfoSchema,
  shaSchema,
} from './github-port.ts';

const ports = new WeakMap<GitHub, GitHubPort>();
const clients = new WeakMap<GitHubPort, GitHub>();

/** The client a port was built over; undefined for any other port (the in-memory fake). */
export function clientUnder(port: GitHubPort): GitHub | undefined {
  return clients.get(port);
}

/** The port over `gh` (the same object for the same client). */
export function octokitPort(gh: GitHub): GitHubPort {
  let port = ports.get(gh);
  if (!port) {
    port = build(gh);
    ports.set(gh, port);
    clients.set(port, gh);
  }
  return port;
}

function build(gh: GitHub): GitHubPort {
  return {
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
    updateCheckOutput: (repo, id, out) => updateCheckOutput(gh, repoId(repo), id, out),
    upsertComment: async (pull, content, marker = COMMENT_MARKER) =>
      commentWriteSchema.parse(
        await upsertStickyComment(gh, { owner: pull.owner, repo: pull.repo }, pull.number, content, marker),
      ),
    livePull: async (ref) => liveMemberSchema.optional().parse(await livePull(gh, ref)),
    mergeRules: async (repo, branch) =>
      mergeRulesSchema.parse(await readMergeRules(gh, repoId(repo), branch)),
    memberFacts: async (ref, baseRef, rules) =>
      memberFactsSchema.parse(await readMemberFacts(gh, ref, baseRef, rules)),
    requiredChecks: async (repo, branch) =>
      z.array(z.string()).parse(await requiredChecks(gh, repoId(repo), branch)),
    checksOn: async (repo, sha) => headChecksSchema.parse(await checksOn(gh, repoId(repo), sha)),
    mergePull: async (ref, sha) => mergeAnswerSchema.parse(await mergePull(gh, ref, sha)),
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
