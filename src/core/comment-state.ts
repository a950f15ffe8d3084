/**
 * How a sticky comment's stored state changes (core/comment-state.schema.ts): pure steps, each
 * returning the next state, the same object when nothing changes (no write is due), or
 * `undefined` when there is no comment to change. The words are rendered from the state by
 * report/sticky-comment-state.ts.
 */
import type { CommentPending, CommentResult, CommentState, CommentView } from './comment-state.schema.ts';

/** A result published: it replaces the whole comment, whatever was said before. */
export function withResult(result: CommentResult): CommentState {
  return { result };
}

/**
 * An evaluation of new heads starts: an existing comment keeps its result, under a notice naming
 * the heads now evaluated (replacing an earlier notice). The PR is evaluated again, so a final
 * state it had (closed, then reopened) no longer holds.
 */
export function withReEvaluating(
  state: CommentState | undefined,
  view: CommentView,
): CommentState | undefined {
  if (!state) return undefined;
  return pendingOn(state, { kind: 're-evaluating', view });
}

/**
 * The full configuration is in: the verdict goes on top, the earlier result (if any) below, until
 * the complete report replaces the comment. `undefined` before there is a verdict to say.
 */
export function withVerdictFirst(
  state: CommentState | undefined,
  view: CommentView,
  progress: { planned: number; done: number; full?: string | undefined },
): CommentState | undefined {
  const full = progress.full;
  if (full !== 'pass' && full !== 'fail') return undefined;
  return pendingOn(state ?? {}, {
    kind: 'verdict-first',
    view,
    progress: { planned: progress.planned, done: progress.done, full },
  });
}

function pendingOn(state: CommentState, pending: CommentPending): CommentState {
  const { final: _final, merged: _merged, ...rest } = state;
  return { ...rest, pending };
}

/** `/tandem merge` merged the set: said first, no re-run offered, a pending notice dropped. */
export function withMerged(state: CommentState | undefined, by: string): CommentState | undefined {
  if (!state || state.merged) return state;
  const { pending: _pending, ...rest } = state;
  return { ...rest, merged: { by } };
}

/**
 * Merged or closed on GitHub: the comment reaches its final state once (a `/tandem merge` state
 * or an earlier final state stays); an evaluation in flight will not publish here.
 */
export function withFinal(
  state: CommentState | undefined,
  pull: { state: 'merged' | 'closed'; baseRef: string },
): CommentState | undefined {
  if (!state || state.merged || state.final) return state;
  const { pending: _pending, ...rest } = state;
  return { ...rest, final: { state: pull.state, baseRef: pull.baseRef } };
}
