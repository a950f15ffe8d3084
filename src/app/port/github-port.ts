/**
 * The GitHub operations the App's rooms (linking, webhooks, evaluations, the service) use, as one
 * interface per installation. Two implementations: `octokit-port.ts` over Octokit (the App in
 * production and the e2e tests over the HTTP stand-in), and an in-memory fake
 * (`test/support/memory-github.ts`) that unit tests of the App's decisions run on. Repositories
 * are named `owner/name`; every result is parsed with the schemas below (or `pullInfoOf`), so a
 * fake cannot hand the rooms a shape GitHub never would.
 *
 * Publishing (comments, the running check's progress) and `/tandem merge` still take the Octokit
 * underneath (`octokit`): their rooms are not on the port yet.
 */
import { z } from 'zod';
import type { CheckRunOutput } from '../../core/check-run-output.ts';
import type { PullRef } from '../../core/pull-ref.ts';
import type { PullInfo } from '../../core/pull-request.schema.ts';
import { repoVisibilitySchema } from '../../core/repo-visibility.ts';
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
}

/** Where a room gets the port of an installation. */
export type GitHubPorts = (installationId: number) => Promise<GitHubPort>;
