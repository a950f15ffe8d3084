/**
 * What a branch requires before a merge, as tests configure them: required checks, and merge
 * rules (approving reviews, code owners' approval, verified signatures, the merge queue), through
 * branch protection or through a ruleset. The branch (`GET …/branches/{b}`), the protection
 * endpoints, the rules endpoint and the merge gate all read them from here; reviews a PR got
 * (`GET …/pulls/{n}/reviews`) too.
 */
import { type PullRecord, perState, repoKey, type StandInState } from './state.ts';

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
  /** A `pull_request` rule even without required reviews: changes only through pull requests. */
  requirePullRequest?: boolean;
  /** A `non_fast_forward` rule: force updates of the branch are refused. */
  noForcePush?: boolean;
  /** The App is a bypass actor (`always`) of the ruleset: its direct ref updates are allowed. */
  appBypass?: boolean;
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

/** Each stand-in's branch requirements, by branch key. */
const table = perState(() => new Map<string, BranchRequirements>());

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

/** CODEOWNERS owners of a path, the stand-in's own reading: the last matching line (`*`, `dir/`, `/path`, `*.ext`). */
function ownersOf(codeowners: string, path: string): string[] {
  let owners: string[] = [];
  for (const line of codeowners.split('\n').map((l) => l.trim())) {
    if (!line || line.startsWith('#')) continue;
    const [pattern = '', ...who] = line.split(/\s+/);
    const p = pattern.replace(/^\//, '');
    const hit =
      p === '*' ||
      (p.endsWith('/') && path.startsWith(p)) ||
      (p.startsWith('*.') && path.endsWith(p.slice(1))) ||
      path === p;
    if (hit) owners = who;
  }
  return owners;
}

/** GitHub's merge rules at merge time (rulesets and protection), as GitHub words its 405s. */
export function ruleViolation(
  state: StandInState,
  owner: string,
  repo: string,
  p: PullRecord,
): string | undefined {
  const merge = requirementsOf(state, owner, repo, p.baseRef).merge;
  const r = { owner, name: repo };
  if (!merge) return undefined;
  if (merge.mergeQueue) return 'Changes must be made through the merge queue';
  const latest = new Map<string, string>();
  for (const rv of reviewsOf(state, r.owner, r.name, p.number))
    if (rv.state !== 'COMMENTED') latest.set(rv.user.toLowerCase(), rv.state);
  const approvers = [...latest]
    .filter(
      ([u, st]) =>
        st === 'APPROVED' &&
        ['admin', 'maintain', 'write'].includes(state.permission(r.owner, r.name, u) ?? ''),
    )
    .map(([u]) => u);
  const n = merge.approvals ?? 0;
  if (approvers.length < n)
    return `At least ${n} approving review${n === 1 ? ' is' : 's are'} required by reviewers with write access.`;
  if (merge.codeOwners) {
    const codeowners = ['.github/CODEOWNERS', 'CODEOWNERS', 'docs/CODEOWNERS']
      .map((f) => state.tree(r.owner, r.name, p.baseRef)?.get(f))
      .find((b) => b !== undefined);
    for (const f of codeowners ? (p.files ?? []) : []) {
      const owners = ownersOf(codeowners!.toString('utf8'), f.filename);
      if (owners.length > 0 && !owners.some((o) => approvers.includes(o.replace(/^@/, '').toLowerCase())))
        return `Waiting on code owner review from ${owners.join(', ')}.`;
    }
  }
  if (merge.signatures) {
    const commits = p.commits ?? [{ sha: p.headSha, message: p.title }];
    if (commits.some((c) => !c.verified)) return 'Commits must have verified signatures.';
  }
  return undefined;
}
