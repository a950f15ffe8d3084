/**
 * The linked change from the event that started the workflow, when the step names none:
 * - `repository_dispatch` (how an App hands an evaluation over): `client_payload.pull_requests`,
 *   a list of `owner/repo#N` (or one string of them);
 * - `workflow_dispatch`: the workflow's `pull-requests` (or `pull_requests`) input.
 * Anything else, or an unreadable event file, gives nothing: the inputs then ask for `case`.
 */
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import type { Env } from './runner.ts';

const listOrText = z
  .union([z.array(z.string()), z.string()])
  .transform((v) => (Array.isArray(v) ? v.join('\n') : v));

const eventSchema = z.object({
  client_payload: z.object({ pull_requests: listOrText.optional() }).loose().optional(),
  inputs: z
    .object({ 'pull-requests': listOrText.optional(), pull_requests: listOrText.optional() })
    .loose()
    .nullish(),
});

export function pullRequestsFromEvent(env: Env): string | undefined {
  const file = env.GITHUB_EVENT_PATH;
  if (!file) return undefined;
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
  const parsed = eventSchema.safeParse(data);
  if (!parsed.success) return undefined;
  const e = parsed.data;
  const text = e.client_payload?.pull_requests ?? e.inputs?.['pull-requests'] ?? e.inputs?.pull_requests;
  return text?.trim() ? text : undefined;
}
