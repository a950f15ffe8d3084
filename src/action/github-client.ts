/**
 * The Action's GitHub REST client: `@actions/github`'s Octokit with the retry and throttling
 * plugins. Server errors and network failures are retried (plugin-retry); rate limits, primary
 * and secondary, are waited out (plugin-throttling) a few times. What still fails becomes:
 * - a rate limit the plugin gave up on: infrastructure trouble, said to be a rate limit;
 * - 401/403/404 and other refusals: bad input naming the input that led to the request (a wrong
 *   name, or a token that cannot read the repository);
 * - anything else (5xx after retries, no connection, an answer of the wrong shape): infrastructure.
 * Which failures were rate limits is what the throttling plugin decided, recorded per request,
 * never guessed from the message text.
 */
import * as core from '@actions/core';
import { getOctokit } from '@actions/github';
import { retry } from '@octokit/plugin-retry';
import { type ThrottlingOptions, throttling } from '@octokit/plugin-throttling';
import { z } from 'zod';
import { InfraError, InputError } from '../core/errors.ts';
import { describeIssues } from '../core/zod-issues.ts';

export type ActionOctokit = ReturnType<typeof getOctokit>;
type RateLimit = 'primary' | 'secondary';
type LimitHandler = Extract<ThrottlingOptions, { enabled?: boolean; onRateLimit: unknown }>['onRateLimit'];

export interface GitHubApi {
  octokit: ActionOctokit;
  /** The token, for clone URLs (http(s) basic auth as `x-access-token`). */
  token: string;
  baseUrl: string;
  /** The rate limit the throttling plugin met on a request (`GET https://…`), if any. */
  rateLimitOf(method: string, url: string): RateLimit | undefined;
}

export interface ClientOptions {
  token: string;
  baseUrl: string;
  /** Retries of a request that failed with a server error or no connection. */
  retries?: number;
  /** Waits per request before a rate limit is reported. */
  rateLimitRetries?: number;
  /** Seconds to wait on a secondary limit that names no `retry-after` (GitHub's advice: a minute). */
  fallbackSecondaryRetryAfter?: number;
}

export function createGitHubApi(opts: ClientOptions): GitHubApi {
  const limited = new Map<string, RateLimit>();
  const retries = opts.rateLimitRetries ?? 2;
  let octokit: ActionOctokit;
  const onLimit =
    (kind: RateLimit): LimitHandler =>
    (retryAfter, options, _octokit, count) => {
      const { method, url } = octokit.request.endpoint(options);
      limited.set(`${method} ${url}`, kind);
      if (count >= retries) return false;
      core.info(`tandem: GitHub ${kind} rate limit on ${method} ${url}; waiting ${retryAfter} s`);
      return true;
    };
  octokit = getOctokit(
    opts.token,
    {
      baseUrl: opts.baseUrl,
      userAgent: 'tandem-action',
      throttle: {
        onRateLimit: onLimit('primary'),
        onSecondaryRateLimit: onLimit('secondary'),
        fallbackSecondaryRateRetryAfter: opts.fallbackSecondaryRetryAfter ?? 60,
      },
      // Rate limits (403/429) are the throttling plugin's: plugin-retry would retry them at once.
      retry: { retries: opts.retries ?? 3, doNotRetry: [400, 401, 403, 404, 410, 422, 429, 451] },
    },
    retry,
    throttling,
  );
  return {
    octokit,
    token: opts.token,
    baseUrl: opts.baseUrl,
    rateLimitOf: (method, url) => limited.get(`${method} ${url}`),
  };
}

/** Names a read in messages and says which input led to it. */
export interface ReadTarget {
  /** `acme/api#7`, `acme/web`. */
  label: string;
  /** `pull-requests`, `context`. */
  input: string;
  /** `owner/repo` the token must be able to read. */
  repo: string;
}

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

/** One REST read, its answer validated with `schema`; failures as the header describes. */
export async function readJson<S extends z.ZodType>(
  api: GitHubApi,
  what: ReadTarget,
  call: (octokit: ActionOctokit) => Promise<{ data: unknown }>,
  schema: S,
): Promise<z.infer<S>> {
  let data: unknown;
  try {
    ({ data } = await call(api.octokit));
  } catch (err) {
    throw explainFailure(api, what, err);
  }
  const parsed = schema.safeParse(data);
  if (parsed.success) return parsed.data;
  throw new InfraError(
    'fetch',
    `${what.label}: unexpected answer from ${api.baseUrl}: ${describeIssues(parsed.error).text}`,
    { target: what.repo },
  );
}

function explainFailure(api: GitHubApi, what: ReadTarget, err: unknown): Error {
  const http = requestErrorSchema.safeParse(err);
  // Octokit reports a failed connection as status 500 without a response.
  if (!http.success || !http.data.response) {
    return new InfraError('fetch', `${what.label}: cannot reach ${api.baseUrl}: ${(err as Error)?.message}`, {
      target: what.repo,
    });
  }
  const { status, request, response } = http.data;
  const why = `${status}${response.data?.message ? ` ${response.data.message}` : ''}`;
  const headers = response.headers ?? {};
  // Limits answer 403 or 429; a request limited earlier that now fails otherwise is not limited.
  const limit =
    status === 403 || status === 429
      ? (api.rateLimitOf(request.method, request.url) ??
        (status === 429 ? 'secondary' : headers['x-ratelimit-remaining'] === '0' ? 'primary' : undefined))
      : undefined;
  if (limit) {
    return new InfraError(
      'fetch',
      `${what.label}: GitHub's ${limit} rate limit for this token is still exceeded after waiting (${why}); run the job again later`,
      { target: what.repo },
    );
  }
  if (status >= 500) {
    return new InfraError('fetch', `${what.label}: GitHub answered ${why}`, { target: what.repo });
  }
  return new InputError(
    `input "${what.input}": ${what.label}: ${why} (does the "token" input read ${what.repo}?)`,
    undefined,
    what.input,
  );
}
