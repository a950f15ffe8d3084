/**
 * The linked change from the event that started the workflow, when the step names none:
 * - `repository_dispatch`: `client_payload.pull_requests`, a list of `owner/repo#N` (or one
 *   string of them), and `client_payload.context` (`owner/repo[@ref]`, list or string);
 * - `workflow_dispatch` (how the App hands an evaluation over): the workflow's `pull-requests`
 *   (or `pull_requests`) and `context` inputs.
 * Anything else gives nothing: the inputs then ask for `case`. The payload is the toolkit's
 * `github.context.payload` (read from `GITHUB_EVENT_PATH`; `{}` without one).
 */
import { z } from 'zod';

const listOrText = z
  .union([z.array(z.string()), z.string()])
  .transform((v) => (Array.isArray(v) ? v.join('\n') : v));

const eventSchema = z.object({
  client_payload: z
    .object({ pull_requests: listOrText.optional(), context: listOrText.optional() })
    .loose()
    .optional(),
  inputs: z
    .object({
      'pull-requests': listOrText.optional(),
      pull_requests: listOrText.optional(),
      context: listOrText.optional(),
    })
    .loose()
    .nullish(),
});

export interface EventChange {
  pullRequests: string;
  /** The repositories without a PR that go with them, when the event names any. */
  context?: string;
}

export function changeFromEvent(payload: unknown): EventChange | undefined {
  const parsed = eventSchema.safeParse(payload);
  if (!parsed.success) return undefined;
  const e = parsed.data;
  const pulls = e.client_payload?.pull_requests ?? e.inputs?.['pull-requests'] ?? e.inputs?.pull_requests;
  if (!pulls?.trim()) return undefined;
  const context = e.client_payload?.pull_requests ? e.client_payload.context : e.inputs?.context;
  return { pullRequests: pulls, ...(context?.trim() ? { context } : {}) };
}
