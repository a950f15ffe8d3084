/**
 * The GitHub operations the App's rooms (linking, webhooks, evaluations, the service) use, as one
 * interface per installation. Two implementations: `octokit-port.ts` over Octokit (the App in
 * production and the e2e tests over the HTTP stand-in), and an in-memory fake
 * (`test/support/memory-github.ts`) that unit tests of the App's decisions run on. Repositories
 * are named `owner/name`; every result is parsed with the schemas below (or `pullInfoOf`), so a
 * fake cannot hand the rooms a shape GitHub never would.
 *
 * The Actions hand-off (`executors/`) and the merge-queue gate (`merge-queue/`) use the port too:
 * dispatching the evaluator's workflow, reading its runs and their report artifact, and moving a
 * check to `in_progress`; so do publishing (sticky comments, the running check's progress) and
 * the member-by-member `/tandem merge` (live PRs, branch rules, required checks, the merge).
 * Only the linked-set merge queue (`merge-command/queue-*.ts`) still takes the client underneath,
 * through `port/queue-client.ts`.
 */
import { z } from 'zod';
import type { CheckRunOutput } from '../../core/check-run-output.ts';
import type { LivePull } from '../../core/merge-command-plan.ts';
import type { MemberFacts, MergeRules } from '../../core/merge-rules.ts';
import type { PullRef } from '../../core/pull-ref.ts';
import type { PullInfo } from '../../core/pull-request.schema.ts';
import { repoVisibilitySchema } from '../../core/repo-visibility.ts';
import type { CheckRunState, CommitStatusState } from '../../core/required-checks.ts';
import type { WorkflowRunInfo } from '../../github/actions.ts';
import type { CheckConclusion } from '../../github/check-runs.ts';
import type { MergeAnswer } from '../../github/merge-pulls.ts';
import type { OrgConfigLoad } from '../../github/org-config.ts';
import type { FetchedSuite } from '../../github/suite-fetch.ts';

export const repoInfoSchema = z.object({
  cloneUrl: z.string().min(1),
  defaultBranch: z.string().min(1),
  visibility: repoVisibilitySchema.optional(),
});
/** What the App reads of a repository: where to clone it, its default branch, how private it is. */
export type RepoInfo = z.infer<typeof repoInfoSchema>;

export const pullRefSchema = z.object({
  owner: z.string().min(1),
  repo: z.string().min(1),
  number: z.number().int().positive(),
});

export const foundCheckRunSchema = z.object({ id: z.number().int().positive(), completed: z.boolean() });
/** One of this App's `Tandem` checks found on a head. */
export type FoundCheckRun = z.infer<typeof foundCheckRunSchema>;

export const checkRunIdSchema = z.number().int().positive();
export const shaSchema = z.string().min(1);

/** A check kept `in_progress` and pointed at where its evaluation happens (a workflow run). */
export const checkLinkSchema = z.object({
  url: z.string().min(1).optional(),
  title: z.string().min(1),
  summary: z.string(),
});
export type CheckLink = z.infer<typeof checkLinkSchema>;

/** A report artifact's zip, as downloaded. */
export const artifactZipSchema = z.instanceof(Buffer);

export type Reaction = '+1' | 'eyes' | 'confused' | 'rocket';

/** What writing a sticky comment did (`unchanged`: the body on GitHub was already this one). */
export const commentWriteSchema = z.object({
  id: z.number().int().positive(),
  action: z.enum(['created', 'updated', 'unchanged']),
});
export type CommentWrite = z.infer<typeof commentWriteSchema>;

/** A member as GitHub shows it now (`/tandem merge` reads it again before merging). */
export const liveMemberSchema = z.object({
  state: z.enum(['open', 'closed', 'merged']),
  headSha: z.string().min(1),
  draft: z.boolean(),
  mergeable: z.boolean().nullable(),
  mergeableState: z.string().optional(),
  baseRef: z.string().min(1),
  mergeCommitSha: z.string().nullable(),
});
export type LiveMember = z.infer<typeof liveMemberSchema> & LivePull;

export const mergeRulesSchema = z.object({
  approvals: z.number().int().nonnegative(),
  codeOwners: z.boolean(),
  signatures: z.boolean(),
  mergeQueue: z.boolean(),
}) satisfies z.ZodType<MergeRules>;

export const memberFactsSchema = z.object({
  approvers: z.array(z.string()),
  ownersByFile: z.array(z.array(z.string())),
  unsignedCommits: z.array(z.string()),
}) satisfies z.ZodType<MemberFacts>;

export const headChecksSchema = z.object({
  runs: z.array(
    z.object({ id: z.number(), name: z.string(), status: z.string(), conclusion: z.string().nullable() }),
  ),
  statuses: z.array(z.object({ context: z.string(), state: z.string() })),
}) satisfies z.ZodType<{ runs: CheckRunState[]; statuses: CommitStatusState[] }>;
/** The check runs (latest of each name) and commit statuses on a commit. */
export type HeadChecks = z.infer<typeof headChecksSchema>;

export const mergeAnswerSchema = z.union([
  z.object({ merged: z.literal(true), sha: z.string().min(1) }),
  z.object({ merged: z.literal(false), status: z.number().int().optional(), reason: z.string().min(1) }),
]) satisfies z.ZodType<MergeAnswer>;

export interface GitHubPort {
  /** A PR, or undefined when it does not exist or the installation cannot see it. */
  pull(ref: PullRef): Promise<PullInfo | undefined>;
  /** Open PRs of `repo` whose head branch (in `repo`'s owner) is `headRef`. */
  openPullsWithHead(repo: string, headRef: string): Promise<PullInfo[]>;
  /** Open PRs of `org` whose body names `to`; undefined when search refused (nothing to remember). */
  searchLinkingPulls(org: string, to: PullRef): Promise<PullRef[] | undefined>;

  repo(name: string): Promise<RepoInfo>;
  /** The current tip of a branch. */
  branchTip(repo: string, branch: string): Promise<string>;
  /** `cloneUrl` with an installation token in it, for the engine's fetches. */
  authenticatedCloneUrl(cloneUrl: string): Promise<string>;

  /** Whether `login` has write access (or more) to `repo`; false for a stranger. */
  canWrite(repo: string, login: string): Promise<boolean>;
  react(repo: string, commentId: number, content: Reaction): Promise<void>;

  /** The organization's `.github/tandem.yml`, validated (never throws on bad content). */
  orgConfig(org: string): Promise<OrgConfigLoad>;
  /** The suite and its hidden files from the evaluator repository, into `root`. */
  fetchSuite(evaluator: string, suitePath: string, root: string): Promise<FetchedSuite>;

  createQueuedCheck(repo: string, headSha: string, externalId: string, summary: string): Promise<number>;
  /** Moves a check back to `queued` (a new evaluation of the same head). */
  reopenCheck(repo: string, checkRunId: number, summary: string): Promise<void>;
  completeCheck(
    repo: string,
    checkRunId: number,
    conclusion: CheckConclusion,
    out: CheckRunOutput,
    opts?: { rerunAction?: boolean },
  ): Promise<void>;
  /** This App's `Tandem` checks on `headSha` tagged `externalId`, newest first. */
  tandemChecksOn(repo: string, headSha: string, externalId: string): Promise<FoundCheckRun[]>;
  /** Moves a check to `in_progress` (the merge-queue gate began evaluating its group). */
  markInProgress(repo: string, checkRunId: number, summary: string): Promise<void>;
  /** Keeps a check `in_progress`, its text and details link pointing at the workflow run. */
  linkCheck(repo: string, checkRunId: number, link: CheckLink): Promise<void>;
  /** A running check's text only (its status and start time stay): progress while it runs. */
  updateCheckOutput(repo: string, checkRunId: number, out: { title: string; summary: string }): Promise<void>;

  /**
   * Creates or edits this App's comment on `pull` that carries `marker` (the verdict comment by
   * default) so that it shows `content`; nothing is written when it already does.
   */
  upsertComment(pull: PullRef, content: string, marker?: string): Promise<CommentWrite>;

  /** A PR as GitHub shows it now, with its merge commit once merged; undefined when gone. */
  livePull(ref: PullRef): Promise<LiveMember | undefined>;
  /** The rules a merge into `branch` must meet (its rulesets and, where readable, its protection). */
  mergeRules(repo: string, branch: string): Promise<MergeRules>;
  /** What `rules` need to know of a PR (approvers, code owners per file, unsigned commits). */
  memberFacts(ref: PullRef, baseRef: string, rules: MergeRules): Promise<MemberFacts>;
  /** Every check context `branch` requires before a merge (protection and rulesets). */
  requiredChecks(repo: string, branch: string): Promise<string[]>;
  /** The check runs (latest of each name) and commit statuses on `sha`. */
  checksOn(repo: string, sha: string): Promise<HeadChecks>;
  /** Merges `ref` at exactly `sha`; a refusal comes back as a value with GitHub's reason. */
  mergePull(ref: PullRef, sha: string): Promise<MergeAnswer>;

  /** `workflow_dispatch` of `workflow` (a file name) in `repo` at `ref`; rejects when GitHub refuses. */
  dispatchWorkflow(
    repo: string,
    workflow: string,
    ref: string,
    inputs: Record<string, string>,
  ): Promise<void>;
  /** A workflow run by id; undefined when there is none. */
  workflowRun(repo: string, runId: number): Promise<WorkflowRunInfo | undefined>;
  /** Runs of `workflow` started by `workflow_dispatch` at or after `since`, newest first. */
  recentWorkflowRuns(repo: string, workflow: string, since: Date): Promise<WorkflowRunInfo[]>;
  /** The zip of the run's artifact `name`; undefined when the run uploaded none (or it expired). */
  runArtifact(repo: string, runId: number, name: string): Promise<Buffer | undefined>;
}

/** Where a room gets the port of an installation. */
export type GitHubPorts = (installationId: number) => Promise<GitHubPort>;
