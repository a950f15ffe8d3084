/**
 * What a delivery is about, read from its payload rather than its `X-GitHub-Delivery` header: a
 * captured signed delivery sent again under a fresh id is the same event, and must do nothing
 * twice. The identity is the event, the action, the object's id and what changes with every real
 * new event of it (a PR's head, `updated_at` and text, a comment's `updated_at` and text, a
 * group's head SHA, a run's attempt).
 * Events without such fields (a check re-run pressed twice is two real requests) have none.
 */
import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { DeliveryClaim } from '../evaluation-requests.ts';

const pullPayload = z.object({
  action: z.string(),
  pull_request: z.object({
    id: z.number(),
    updated_at: z.string(),
    head: z.object({ sha: z.string() }),
    state: z.string(),
    title: z.string(),
    body: z.string().nullish(),
    base: z.object({ ref: z.string() }),
  }),
});

const commentPayload = z.object({
  action: z.string(),
  comment: z.object({ id: z.number(), updated_at: z.string(), body: z.string() }),
});

const mergeGroupPayload = z.object({
  action: z.string(),
  merge_group: z.object({ head_sha: z.string(), head_ref: z.string() }),
});

const workflowRunPayload = z.object({
  action: z.string(),
  workflow_run: z.object({ id: z.number(), updated_at: z.string(), run_attempt: z.number().optional() }),
});

function parts(event: string, payload: unknown): Array<string | number> | undefined {
  const pr = pullPayload.safeParse(payload);
  if (event === 'pull_request' && pr.success) {
    const p = pr.data.pull_request;
    // The content too: two real edits within one second share `updated_at`, never their text.
    return [pr.data.action, p.id, p.head.sha, p.updated_at, p.state, p.base.ref, p.title, p.body ?? ''];
  }
  const comment = commentPayload.safeParse(payload);
  if (event === 'issue_comment' && comment.success)
    return [
      comment.data.action,
      comment.data.comment.id,
      comment.data.comment.updated_at,
      comment.data.comment.body,
    ];
  const group = mergeGroupPayload.safeParse(payload);
  if (event === 'merge_group' && group.success)
    return [group.data.action, group.data.merge_group.head_ref, group.data.merge_group.head_sha];
  const run = workflowRunPayload.safeParse(payload);
  if (event === 'workflow_run' && run.success) {
    const r = run.data.workflow_run;
    return [run.data.action, r.id, r.run_attempt ?? 1, r.updated_at];
  }
  return undefined;
}

/** A stable key for the payload's identity, or undefined when the event has none. */
export function deliveryIdentity(event: string, payload: unknown): string | undefined {
  const p = parts(event.split('.')[0]!, payload);
  if (!p) return undefined;
  return `payload:${createHash('sha256')
    .update(JSON.stringify([event.split('.')[0], ...p]))
    .digest('hex')}`;
}

/** A delivery as GitHub names it (`X-GitHub-Delivery`, the event) with its payload's identity. */
export function claimOf(context: { id: string; name: string; payload: unknown }): DeliveryClaim {
  return { id: context.id, event: context.name, identity: deliveryIdentity(context.name, context.payload) };
}
