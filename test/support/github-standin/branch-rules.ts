/**
 * What a branch requires before a merge, as tests configure them: required checks, and merge
 * rules (approving reviews, code owners' approval, verified signatures, the merge queue), through
 * branch protection or through a ruleset. The branch (`GET …/branches/{b}`), the protection
 * endpoints, the rules endpoint and the merge gate all read them from here; reviews a PR got
 * (`GET …/pulls/{n}/reviews`) too.
 */
import { repoKey, type StandInState } from './state.ts';

export interface BranchRequirements {
  protection: string[];
  rules: string[];
  /** Merge rules, and where they are set (a ruleset or branch protection). */
  merge?: MergeRequirements & { via: 'protection' | 'rules' };
}

export interface MergeRequirements {
  approvals?: number;
  codeOwners?: boolean;
  signatures?: boolean;
  /** Only rulesets require a merge queue. */
  mergeQueue?: boolean;
}

export interface ReviewRecord {
  id: number;
  user: string;
  state: 'APPROVED' | 'CHANGES_REQUESTED' | 'COMMENTED' | 'DISMISSED';
  commitId: string;
}

const reviews = new WeakMap<StandInState, Map<string, ReviewRecord[]>>();

/** A review on a PR, as a person would submit it. */
export function addReview(
  state: StandInState,
  owner: string,
  repo: string,
  number: number,
  review: Omit<ReviewRecord, 'id'>,
): void {
  const t = reviews.get(state) ?? new Map<string, ReviewRecord[]>();
  reviews.set(state, t);
  const key = `${repoKey(owner, repo)}#${number}`;
  t.set(key, [...(t.get(key) ?? []), { ...review, id: state.newId() }]);
}

export function reviewsOf(state: StandInState, owner: string, repo: string, number: number): ReviewRecord[] {
  return reviews.get(state)?.get(`${repoKey(owner, repo)}#${number}`) ?? [];
}

/** Sets merge rules on `branch`, through a ruleset or branch protection. */
export function requireMergeRules(
  state: StandInState,
  owner: string,
  repo: string,
  branch: string,
  merge: MergeRequirements,
  via: 'protection' | 'rules' = 'rules',
): void {
  const key = `${repoKey(owner, repo)}@${branch}`;
  const entry = table(state).get(key) ?? { protection: [], rules: [] };
  entry.merge = { ...merge, via };
  table(state).set(key, entry);
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
