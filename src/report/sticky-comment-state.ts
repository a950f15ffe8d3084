/**
 * The whole sticky comment, rendered from its stored state (core/comment-state.schema.ts) on
 * every update: the last result re-rendered from its view model, under the notice
 * `templates/sticky-comment-notice.md.hbs` words for what happened since. Nothing is read back
 * from the posted comment, so an edited or half-written comment never feeds the next one.
 */
import type { CommentResult, CommentState } from '../core/comment-state.schema.ts';
import {
  headsLine,
  noReportHeads,
  renderLinkedChangeComment,
  renderNoReport,
  renderRefused,
  reportHeads,
  toGo,
} from './linked-change.ts';
import { renderLineTemplate } from './markdown-report.ts';

/**
 * The last result as it was published; `settled` (merged or closed) offers nothing to re-run,
 * the way a merged set's report does.
 */
function renderResult(result: CommentResult, settled: boolean): string {
  switch (result.kind) {
    case 'report':
      return renderLinkedChangeComment(
        settled ? { ...result.view, merged: true } : result.view,
        result.report,
        result.reveal,
      );
    case 'no-report':
      return renderNoReport(result.view, result.message, result.cause).comment;
    case 'refused':
      return renderRefused(result.view, result.reason).comment;
  }
}

/** The heads the last result is for, as its footer says them; empty when it names none. */
function resultHeads(result: CommentResult): string {
  return result.kind === 'report'
    ? reportHeads(result.view, result.report, result.reveal)
    : noReportHeads(result.view);
}

/** The notice's words, or '' when the comment is just its last result. */
function renderNotice(state: CommentState): string {
  const pending = state.merged || state.final ? undefined : state.pending;
  if (!state.merged && !state.final && !pending) return '';
  return renderLineTemplate('sticky-comment-notice.md.hbs', {
    merged: state.merged,
    final: state.final,
    reEvaluating: pending?.kind === 're-evaluating',
    verdict: pending?.kind === 'verdict-first' ? pending.progress.full : undefined,
    toGo: pending?.kind === 'verdict-first' ? toGo(pending.progress) : undefined,
    heads: pending ? headsLine(pending.view) : undefined,
    hasResult: state.result !== undefined,
    below: state.result ? resultHeads(state.result) : undefined,
  });
}

/** The comment's Markdown (without its marker) for this state. */
export function renderStickyComment(state: CommentState): string {
  const settled = Boolean(state.merged || state.final);
  const result = state.result ? renderResult(state.result, settled) : '';
  const notice = renderNotice(state);
  if (!notice) return result;
  if (!result) return notice;
  // A notice of an evaluation under way is ruled off from the result it will replace.
  return settled ? `${notice}\n\n${result}` : `${notice}\n\n---\n\n${result}`;
}
