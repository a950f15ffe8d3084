/**
 * What the App remembers of each member PR's sticky comment, so every update re-renders the whole
 * comment from this state (report/sticky-comment-state.ts) instead of reading the posted Markdown
 * back and patching it: the last published result with the view it was rendered for, and what
 * happened since (a re-evaluation under way, the verdict first, `/tandem merge`, merged or closed
 * on GitHub). Parsed with zod when read from the store: a row another Tandem wrote never crashes.
 */
import { z } from 'zod';
import { repoVisibilitySchema } from './repo-visibility.ts';
import { reportSchema } from './report.schema.ts';

/** A member PR as the comment names it (core/pull-request.schema.ts's `PullInfo`). */
const pullSchema = z.object({
  ref: z.object({ owner: z.string(), repo: z.string(), number: z.number().int() }),
  state: z.enum(['open', 'closed', 'merged']),
  title: z.string(),
  body: z.string().nullable(),
  headSha: z.string(),
  headRef: z.string(),
  headRepo: z.string().optional(),
  baseSha: z.string(),
  baseRef: z.string(),
  repo: z.string(),
  htmlUrl: z.string(),
  cloneUrl: z.string(),
  author: z.string().optional(),
  visibility: repoVisibilitySchema.optional(),
});

/** The linked change as one page shows it (report/linked-change.ts's `LinkedChangeView`). */
export const commentViewSchema = z.object({
  members: z.array(pullSchema),
  left: z.array(
    z.object({ key: z.string(), state: z.enum(['closed', 'merged']), baseRef: z.string().optional() }),
  ),
  refused: z.array(
    z.object({
      from: z.string(),
      to: z.string(),
      reason: z.string(),
      foreign: z.boolean().optional(),
      member: z.boolean().optional(),
    }),
  ),
  mergeOrder: z.array(z.string()).optional(),
  checkRunUrl: z.string().optional(),
  jsonReportUrl: z.string().optional(),
  merged: z.boolean().optional(),
  reusedFrom: z.string().optional(),
  suitePath: z.string().optional(),
});

/** The last result published in the comment: a report, a failure before any report, or the caps' refusal. */
export const commentResultSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('report'),
    view: commentViewSchema,
    report: reportSchema,
    reveal: z.enum(['counts', 'names', 'messages']),
  }),
  z.object({
    kind: z.literal('no-report'),
    view: commentViewSchema,
    message: z.string(),
    cause: z.enum(['infrastructure', 'suite']),
  }),
  z.object({ kind: z.literal('refused'), view: commentViewSchema, reason: z.string() }),
]);

/** An evaluation under way above the last result: re-evaluating new heads, or its verdict already in. */
export const commentPendingSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('re-evaluating'), view: commentViewSchema }),
  z.object({
    kind: z.literal('verdict-first'),
    view: commentViewSchema,
    progress: z.object({
      planned: z.number().int(),
      done: z.number().int(),
      full: z.enum(['pass', 'fail']),
    }),
  }),
]);

export const commentStateSchema = z.object({
  result: commentResultSchema.optional(),
  pending: commentPendingSchema.optional(),
  /** `/tandem merge` merged the set, at this person's request. */
  merged: z.object({ by: z.string() }).optional(),
  /** Merged or closed on GitHub (not by `/tandem merge`): Tandem no longer evaluates the PR. */
  final: z.object({ state: z.enum(['merged', 'closed']), baseRef: z.string() }).optional(),
});

export type CommentView = z.infer<typeof commentViewSchema>;
export type CommentResult = z.infer<typeof commentResultSchema>;
export type CommentPending = z.infer<typeof commentPendingSchema>;
export type CommentState = z.infer<typeof commentStateSchema>;
