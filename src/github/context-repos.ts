/**
 * The `context` input: repositories of the workspace that have no pull request (as the App's
 * local executor adds the suite's other repositories). Each is read with `repos.get`
 * for its clone URL (with the token, like the PR targets) and, when the line names no ref, its
 * default branch.
 */
import { z } from 'zod';
import type { ContextRepo } from '../core/case.schema.ts';
import type { ContextRef } from '../core/context-ref.ts';
import { cloneUrlWithToken } from '../core/credentials.ts';
import { InputError } from '../core/errors.ts';
import { RepoSet, repoFullName } from '../core/repo-name.ts';
import { ACTION_INPUT_NAMES, type InputNames, readJson } from './input-reads.ts';
import type { GitHubApi } from './token-client.ts';

const repoSchema = z.object({
  full_name: z.string(),
  clone_url: z.string(),
  default_branch: z.string(),
});

/** The context repositories, in the order given; none may also be a target's repository. */
export async function contextRepos(
  api: GitHubApi,
  refs: readonly ContextRef[],
  targetRepos: readonly string[],
  names: InputNames = ACTION_INPUT_NAMES,
): Promise<ContextRepo[]> {
  const targets = new RepoSet(targetRepos);
  for (const r of refs) {
    const name = repoFullName(r);
    if (targets.has(name)) {
      throw new InputError(
        `${names.context}: ${name} has a pull request in ${names.pulls}; a repository is either a target or context`,
        undefined,
        'context',
      );
    }
  }
  return Promise.all(
    refs.map(async (r) => {
      const name = repoFullName(r);
      const info = await readJson(
        api,
        { label: name, input: 'context', repo: name, names },
        (o) => o.rest.repos.get({ owner: r.owner, repo: r.repo }),
        repoSchema,
      );
      return {
        repo: info.full_name,
        url: cloneUrlWithToken(info.clone_url, api.token),
        ref: r.ref ?? info.default_branch,
      };
    }),
  );
}
