/**
 * Landing a queue item's tested commits: producer first, all or nothing (issue 28). INTERFACE
 * FIRST: the implementation follows; the signature is the one agreed in prompts/s3/Q-shared.md.
 *
 * Refinements over the sketch: `Landing.viaMergeQueue` (set by the caller from `precheckQueueItem`)
 * hands that member to GitHub's merge queue instead of moving its branch; `pullNodeId` is then
 * read by the lander itself, so the caller needs nothing more.
 */
import type { GitHub } from './octokit.ts';

export interface Landing {
  /** `owner/repo#n`. */
  pull: string;
  /** `owner/name`. */
  repo: string;
  baseBranch: string;
  /** The base tip the tested commit was built on (landing refuses if the branch moved elsewhere). */
  expectedTip: string;
  testedSha: string;
  /** The branch requires GitHub's merge queue: enqueue the PR there and check the landed tree. */
  viaMergeQueue?: boolean;
}

export type LandOutcome =
  | { kind: 'landed'; landed: Landing[]; windowMs: number }
  | {
      kind: 'refused';
      at: Landing;
      reason: string;
      reverted: Array<{ landing: Landing; how: 'reset' | 'revert-pr'; revertPull?: string }>;
      windowMs: number;
    };

export async function landTestedSet(_gh: GitHub, _landings: Landing[]): Promise<LandOutcome> {
  throw new Error('landTestedSet: not implemented yet');
}
