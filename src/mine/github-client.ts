/**
 * The GitHub client mining reads with: Probot's Octokit (retries, pagination, throttling) on a
 * token, rate limits waited out rather than reported — a mining run over an organization's
 * history is long and can afford to wait — and every request counted for the figures.
 */
import { ProbotOctokit } from 'probot';
import type { GitHub } from '../github/octokit.ts';

export interface MiningClient {
  gh: GitHub;
  /** Requests sent so far (retries included). */
  readonly requests: number;
  /** Rate limits met (and waited out) so far. */
  readonly rateLimits: number;
}

/** Past this many waits on one request the limit is reported: something is wrong, not busy. */
const MAX_WAITS = 20;

const quiet = {
  debug: () => {},
  info: () => {},
  warn: () => {},
  error: () => {},
  fatal: () => {},
  trace: () => {},
  child: () => quiet,
};

export function miningClient(opts: {
  token: string;
  apiUrl?: string;
  /** Called when a rate limit makes a request wait (seconds). */
  onWait?: (seconds: number, kind: 'primary' | 'secondary') => void;
}): MiningClient {
  const counts = { requests: 0, rateLimits: 0 };
  const waitOut =
    (kind: 'primary' | 'secondary') => (retryAfter: number, _o: unknown, _k: unknown, retryCount: number) => {
      counts.rateLimits++;
      if (retryCount >= MAX_WAITS) return false;
      opts.onWait?.(retryAfter, kind);
      return true;
    };
  const gh = new ProbotOctokit({
    auth: { token: opts.token },
    ...(opts.apiUrl ? { baseUrl: opts.apiUrl.replace(/\/$/, '') } : {}),
    log: quiet as never,
    throttle: { onRateLimit: waitOut('primary'), onSecondaryRateLimit: waitOut('secondary') },
  }) as GitHub;
  gh.hook.before('request', () => {
    counts.requests++;
  });
  return {
    gh,
    get requests() {
      return counts.requests;
    },
    get rateLimits() {
      return counts.rateLimits;
    },
  };
}
