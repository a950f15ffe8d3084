/**
 * A GitHub REST client on a token (the Action's `token` input): `@actions/github`'s Octokit
 * (it honours the runner's proxy settings) with the retry and throttling plugins. Server errors
 * and network failures are retried (plugin-retry); rate limits, primary and secondary, are waited
 * out (plugin-throttling) a few times. Which requests met a limit is recorded per request, for
 * http-errors.ts to tell a rate limit from a refusal without reading the message text.
 */
import { getOctokit } from '@actions/github';
import { retry } from '@octokit/plugin-retry';
import { type ThrottlingOptions, throttling } from '@octokit/plugin-throttling';
import type { RateLimit } from './http-errors.ts';

export type TokenOctokit = ReturnType<typeof getOctokit>;
type LimitHandler = Extract<ThrottlingOptions, { enabled?: boolean; onRateLimit: unknown }>['onRateLimit'];

export interface GitHubApi {
  octokit: TokenOctokit;
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
  /** Told each wait on a rate limit (the face logs it). */
  onWait?: (line: string) => void;
}

export function createGitHubApi(opts: ClientOptions): GitHubApi {
  const limited = new Map<string, RateLimit>();
  const retries = opts.rateLimitRetries ?? 2;
  let octokit: TokenOctokit;
  const onLimit =
    (kind: RateLimit): LimitHandler =>
    (retryAfter, options, _octokit, count) => {
      const { method, url } = octokit.request.endpoint(options);
      limited.set(`${method} ${url}`, kind);
      if (count >= retries) return false;
      opts.onWait?.(`tandem: GitHub ${kind} rate limit on ${method} ${url}; waiting ${retryAfter} s`);
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
