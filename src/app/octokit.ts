/**
 * Probot's Octokit with rate limits waited out: a primary or secondary limit delays the request
 * (Probot's default gives up after two tries), so a limit never turns into a verdict.
 */
import { ProbotOctokit } from 'probot';

type ThrottleCallback = (retryAfter: number, options: { method: string; url: string }, octokit: unknown) => boolean;

export const TandemOctokit = ProbotOctokit.defaults((options: Record<string, unknown>) => {
  const waitOut: ThrottleCallback = () => true;
  return {
    ...options,
    throttle: { ...(options.throttle as object), onRateLimit: waitOut, onSecondaryRateLimit: waitOut },
  };
}) as typeof ProbotOctokit;
