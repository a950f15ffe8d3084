/**
 * The checks a branch requires before a merge, as tests configure them: through branch
 * protection or through a ruleset. The branch (`GET …/branches/{b}`), the protection endpoint,
 * the rules endpoint and the merge gate all read them from here.
 */
import { repoKey, type StandInState } from './state.ts';

export interface BranchRequirements {
  protection: string[];
  rules: string[];
}

const required = new WeakMap<StandInState, Map<string, BranchRequirements>>();

function table(state: StandInState): Map<string, BranchRequirements> {
  let t = required.get(state);
  if (!t) {
    t = new Map();
    required.set(state, t);
  }
  return t;
}

/** Requires `contexts` on `branch`, through branch protection or a ruleset. */
export function requireChecks(
  state: StandInState,
  owner: string,
  repo: string,
  branch: string,
  contexts: string[],
  via: 'protection' | 'rules' = 'protection',
): void {
  const key = `${repoKey(owner, repo)}@${branch}`;
  const entry = table(state).get(key) ?? { protection: [], rules: [] };
  entry[via] = contexts;
  table(state).set(key, entry);
}

export function requirementsOf(
  state: StandInState,
  owner: string,
  repo: string,
  branch: string,
): BranchRequirements {
  return table(state).get(`${repoKey(owner, repo)}@${branch}`) ?? { protection: [], rules: [] };
}
