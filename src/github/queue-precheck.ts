/**
 * What the App checks before a linked set enters the queue (issue 28). INTERFACE FIRST.
 * Per member: the branch rules the App may not bypass (required reviews, CODEOWNERS, signatures;
 * core/merge-rules.ts), whether the App may move the base branch (a ruleset `pull_request` rule
 * without the App as bypass actor refuses direct ref updates), and whether the branch requires
 * GitHub's merge queue (then the member is landed by handing it to that queue).
 */
import type { GitHub } from './octokit.ts';

export interface PrecheckMember {
  /** `owner/repo#n`. */
  pull: string;
  baseBranch: string;
}

export type MemberPrecheck =
  | { pull: string; ok: true; viaMergeQueue: boolean }
  | { pull: string; ok: false; reason: string };

/** Every member's verdict; the item may enter the queue only when all are `ok`. */
export async function precheckQueueItem(_gh: GitHub, _members: PrecheckMember[]): Promise<MemberPrecheck[]> {
  throw new Error('precheckQueueItem: not implemented yet');
}
