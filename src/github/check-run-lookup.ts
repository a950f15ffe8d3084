/**
 * Finding and reopening the App's own `Tandem` check on a head: a restarted App adopts the check
 * a killed process created (matched by name and `external_id`, which names the PR), and a
 * re-evaluation of an unchanged head moves its one check back to `queued` instead of adding another.
 */
import type { RepoParts } from '../core/repo-name.ts';
import { CHECK_NAME } from './check-runs.ts';
import type { GitHub } from './octokit.ts';

export interface FoundCheckRun {
  id: number;
  completed: boolean;
}

/** This App's `Tandem` checks on `headSha` tagged `externalId`, newest first. */
export async function tandemChecksOn(
  gh: GitHub,
  repo: RepoParts,
  headSha: string,
  externalId: string,
): Promise<FoundCheckRun[]> {
  const runs = await gh.paginate(gh.rest.checks.listForRef, {
    ...repo,
    ref: headSha,
    check_name: CHECK_NAME,
    filter: 'all',
    per_page: 100,
  });
  return runs
    .filter((r) => r.external_id === externalId && r.head_sha === headSha)
    .sort((a, b) => b.id - a.id)
    .map((r) => ({ id: r.id, completed: r.status === 'completed' }));
}
