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
 * check to `in_progress`. Publishing (comments, the running check's progress) and `/tandem merge`
 * still take the Octokit underneath (`octokit`): their rooms are not on the port yet.
 */
import { z } from 'zod';
import type { CheckRunOutput } from '../../core/check-run-output.ts';
import type { PullRef } from '../../core/pull-ref.ts';
import type { PullInfo } from '../../core/pull-request.schema.ts';
import { repoVisibilitySchema } from '../../core/repo-visibility.ts';
import type { WorkflowRunInfo } from '../../github/actions.ts';
import type { CheckConclusion } from '../../github/check-runs.ts';
import type { GitHub } from '../../github/octokit.ts';
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

export interface GitHubPort {
  /** The client underneath, for the rooms not on the port yet (publishing, `/tandem merge`). */
  readonly octokit: GitHub;

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
