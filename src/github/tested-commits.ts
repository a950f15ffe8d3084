/**
 * The commit a queue item's member is tested as, and later landed as (issue 28). INTERFACE FIRST:
 * the implementation follows in later commits; the signature is the one agreed in
 * prompts/s3/Q-shared.md.
 */
import type { GitHub } from './octokit.ts';

export interface TestedCommitInput {
  /** `owner/name`. */
  repo: string;
  baseBranch: string;
  /** The base tip, or the tested commit of the nearest item ahead of this one in this repository. */
  onto: string;
  /** This set's member head SHAs in the repository, in merge order. */
  heads: string[];
  itemId: string;
}

/** `{conflict}` names what did not merge (the head SHA, or the PR when the caller gave it). */
export type TestedCommit = { sha: string } | { conflict: string };

export async function buildTestedCommit(_gh: GitHub, _a: TestedCommitInput): Promise<TestedCommit> {
  throw new Error('buildTestedCommit: not implemented yet');
}
