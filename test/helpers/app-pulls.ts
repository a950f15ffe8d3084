/**
 * Two steps the App's end-to-end tests take over and over, over the world of
 * `test/e2e/app-harness.ts`: announcing PR #1 of several repositories as opened, and reading the
 * Tandem check runs on each opened PR's head.
 */
import { sendPull, tandemChecks, type World } from '../e2e/app-harness.ts';

/** Sends `opened` for PR #1 of each of `repos`, in order (the App evaluates once asked to settle). */
export async function announceOpened(w: World, repos: readonly string[]): Promise<void> {
  for (const repo of repos) await sendPull(w, 'opened', repo, 1);
}

/** Each of `pulls` (keyed by repository, in order) with the Tandem check runs on its head. */
export function checksOnHeads<P extends { number: number; head: { sha: string } }>(
  w: World,
  pulls: Record<string, P>,
): Array<{ repo: string; pr: P; checks: ReturnType<typeof tandemChecks> }> {
  return Object.entries(pulls).map(([repo, pr]) => ({
    repo,
    pr,
    checks: tandemChecks(w, repo, pr.head.sha),
  }));
}
