/**
 * Each member PR's sticky comment, written from its stored state (store/store-comment-states.ts):
 * every change is a step on the state (core/comment-state.ts) and the whole comment is
 * re-rendered from the result (report/sticky-comment-state.ts). Nothing is read back from
 * GitHub to compute a comment, so a comment someone edited is simply rewritten whole.
 */
import type { CommentResult, CommentState, CommentView } from '../../core/comment-state.schema.ts';
import {
  withFinal,
  withMerged,
  withReEvaluating,
  withResult,
  withVerdictFirst,
} from '../../core/comment-state.ts';
import { parsePullKey, pullKey } from '../../core/pull-ref.ts';
import type { PullInfo } from '../../core/pull-request.schema.ts';
import type { EvaluationProgress } from '../../report/linked-change.ts';
import { renderStickyComment } from '../../report/sticky-comment-state.ts';
import type { GitHubPort } from '../port/github-port.ts';
import type { CommentStatesTable } from '../store/store-comment-states.ts';

type Step = (state: CommentState | undefined) => CommentState | undefined;

/**
 * One PR's comment after `step`: stored, then posted whole; nothing is written when nothing
 * changed, or when a newer evaluation than `evaluationId` wrote it (any replica: the store does
 * the update under the PR's lease, store-comment-states.ts).
 */
async function update(
  gh: GitHubPort,
  states: CommentStatesTable,
  key: string,
  step: Step,
  evaluationId?: number,
): Promise<void> {
  await states.edit(key, step, (after) => gh.upsertComment(parsePullKey(key), renderStickyComment(after)), {
    evaluationId,
  });
}

/** A result on every member of `view` (the same comment on each): it replaces what was there. */
export async function commentResultOnAll(
  gh: GitHubPort,
  states: CommentStatesTable,
  view: CommentView,
  result: CommentResult,
  evaluationId?: number,
): Promise<void> {
  for (const m of view.members) await commentResult(gh, states, pullKey(m.ref), result, evaluationId);
}

/** A result on one PR's comment. */
export function commentResult(
  gh: GitHubPort,
  states: CommentStatesTable,
  key: string,
  result: CommentResult,
  evaluationId?: number,
): Promise<void> {
  return update(gh, states, key, () => withResult(result), evaluationId);
}

/**
 * An evaluation starts: each member's earlier comment is marked as the result for the old heads,
 * under a line naming the heads now evaluated, so nobody reads an old verdict as current.
 */
export async function markCommentsStale(
  gh: GitHubPort,
  states: CommentStatesTable,
  view: CommentView,
  evaluationId?: number,
): Promise<void> {
  for (const m of view.members)
    await update(gh, states, pullKey(m.ref), (s) => withReEvaluating(s, view), evaluationId);
}

/**
 * The verdict first in every member's sticky comment, once the full configuration is in; the
 * complete report replaces it. Inside `publishing.run` (the caller's): superseded while it waits
 * for GitHub's content budget, it is never posted.
 */
export async function commentVerdictFirst(
  gh: GitHubPort,
  states: CommentStatesTable,
  view: CommentView,
  progress: EvaluationProgress,
  signal: AbortSignal,
  evaluationId?: number,
): Promise<void> {
  for (const m of view.members) {
    if (signal.aborted) return;
    await update(gh, states, pullKey(m.ref), (s) => withVerdictFirst(s, view, progress), evaluationId);
  }
}

/** `/tandem merge` merged the set: each member's verdict comment says so and offers no re-run. */
export async function markCommentsMerged(
  gh: GitHubPort,
  keys: readonly string[],
  requestedBy: string,
  states: CommentStatesTable,
): Promise<void> {
  for (const key of keys) await update(gh, states, key, (s) => withMerged(s, requestedBy));
}

/** A PR merged or closed on GitHub: its comment, if it has one, reaches its final state. */
export async function markCommentFinalOn(
  gh: GitHubPort,
  pull: PullInfo,
  states: CommentStatesTable,
): Promise<void> {
  const state = pull.state;
  if (state === 'open') return;
  await update(gh, states, pullKey(pull.ref), (s) => withFinal(s, { state, baseRef: pull.baseRef }));
}
