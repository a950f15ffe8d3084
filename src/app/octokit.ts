/**
 * Probot's Octokit, tuned for the App:
 * - rate limits are waited out (Probot's default gives up after two tries), so a limit never
 *   turns into a verdict;
 * - writes (check runs, comments) are spaced by TANDEM_WRITE_SPACING_MS and run a few at a time
 *   instead of the throttling plugin's fixed one per second, which would delay the `queued`
 *   check of the 200th PR in a burst by minutes. GitHub's secondary limits are still honoured
 *   reactively: a 403/429 with retry-after is waited out and retried.
 */
import Bottleneck from 'bottleneck';
import { ProbotOctokit } from 'probot';

type ThrottleCallback = (
  retryAfter: number,
  options: { method: string; url: string },
  octokit: unknown,
) => boolean;

const spacing = Number(process.env.TANDEM_WRITE_SPACING_MS ?? 0);
const writeGroup = new Bottleneck.Group({
  id: 'tandem-write',
  maxConcurrent: spacing > 0 ? 1 : 8,
  minTime: Math.max(spacing, 0),
});

export const TandemOctokit = ProbotOctokit.defaults((options: Record<string, unknown>) => {
  const waitOut: ThrottleCallback = () => true;
  return {
    ...options,
    throttle: {
      ...(options.throttle as object),
      write: writeGroup,
      onRateLimit: waitOut,
      onSecondaryRateLimit: waitOut,
    },
  };
}) as typeof ProbotOctokit;
