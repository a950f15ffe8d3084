/**
 * What a failed GitHub request was, decided once for every caller (the App's port, the Action's
 * reads, mining): by the HTTP status and what the retry and throttling plugins recorded, never by
 * the message text. Callers word the error for their face (which input or flag led to it); the
 * class is the same everywhere:
 * - `no-answer`: no HTTP answer at all (no connection; Octokit reports it as 500 without a response);
 * - `rate-limit`: 403/429 because a primary or secondary rate limit was still exceeded;
 * - `server`: 5xx (what the retry plugin gave up on);
 * - `refused`: any other status (401 token refused, 403/404 not visible, 422 …).
 */

import { z } from 'zod';
import { errorText } from '../core/error-text.ts';

export type RateLimit = 'primary' | 'secondary';

export type HttpFailure =
  | { kind: 'no-answer'; message: string }
  | { kind: 'rate-limit' | 'server' | 'refused'; status: number; limit?: RateLimit; why: string };

/** The parts of an Octokit `RequestError` relied on; anything else is not an HTTP answer. */
const requestErrorSchema = z.object({
  status: z.number().int(),
  request: z.object({ method: z.string(), url: z.string() }),
  response: z
    .object({
      headers: z.record(z.string(), z.unknown()).optional(),
      data: z.object({ message: z.string() }).loose().optional().catch(undefined),
    })
    .optional(),
});

/**
 * Classifies `err`. `rateLimitOf` says which limit the throttling plugin met on a request
 * (`GET https://…`); without a record, a 429 is a secondary limit and a 403 with
 * `x-ratelimit-remaining: 0` a primary one.
 */
export function classifyHttpFailure(
  err: unknown,
  rateLimitOf: (method: string, url: string) => RateLimit | undefined = () => undefined,
): HttpFailure {
  const http = requestErrorSchema.safeParse(err);
  if (!http.success || !http.data.response) {
    return { kind: 'no-answer', message: errorText(err) };
  }
  const { status, request, response } = http.data;
  const why = `${status}${response.data?.message ? ` ${response.data.message}` : ''}`;
  const headers = response.headers ?? {};
  // Limits answer 403 or 429; a request limited earlier that now fails otherwise is not limited.
  const limit =
    status === 403 || status === 429
      ? (rateLimitOf(request.method, request.url) ??
        (status === 429 ? 'secondary' : headers['x-ratelimit-remaining'] === '0' ? 'primary' : undefined))
      : undefined;
  if (limit) return { kind: 'rate-limit', status, limit, why };
  return { kind: status >= 500 ? 'server' : 'refused', status, why };
}
