/**
 * A hand-off to the evaluator's workflow publishes the change where the evaluator repository's
 * readers read it: the run's name and inputs (every PR reference and context ref) and its logs.
 * A public evaluator repository serves them to anyone, so a linked change with a repository more
 * private than the evaluator's is never handed to it (core/page-privacy.ts's rule, the workflow
 * run being the page). The refusal is the evaluator's to fix and names no private repository.
 */
import { InputError } from '../../core/errors.ts';
import { itemRank, mayShow, pageRank } from '../../core/page-privacy.ts';
import { RepoSet } from '../../core/repo-name.ts';
import type { GitHubPort } from '../port/github-port.ts';
import type { LinkedChangeSpec } from './executor.ts';

/** Throws an InputError when `evaluator`'s runs would show a repository of `change` more private than it. */
export async function refuseExposingHandoff(
  gh: GitHubPort,
  evaluator: string,
  change: Pick<LinkedChangeSpec, 'targets' | 'context'>,
): Promise<void> {
  const page = pageRank((await gh.repo(evaluator)).visibility);
  const repos = new RepoSet([...change.targets, ...change.context].map((r) => r.repo));
  for (const repo of repos) {
    if (mayShow(page, itemRank((await gh.repo(repo)).visibility))) continue;
    throw new InputError(
      `the evaluator repository ${evaluator} is more public than this linked change: its workflow runs, inputs and logs would name a more private repository to ${evaluator}'s readers. Make ${evaluator} private (or internal), or evaluate with \`executor: local\`.`,
      '.github/tandem.yml',
      'evaluator',
    );
  }
}
