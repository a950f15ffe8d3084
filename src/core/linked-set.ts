/**
 * The linked change: the connected component of the link graph around a seed pull request.
 * Links count in both directions and cycles are normal. Pure: the caller loads the PRs that
 * `expandLinkedSet` reports as missing and calls it again until nothing is missing.
 */
import { type PullRef, pullKey, repoOfPullKey } from './pull-ref.ts';
import { RepoSet, repoFullName, repoKey } from './repo-name.ts';

export interface LinkNode {
  ref: PullRef;
  state: 'open' | 'closed' | 'merged';
  /** References this PR makes (its body, title and `/tandem link` commands). */
  links: PullRef[];
}

export interface SetPolicy {
  /** The installation's organization: links elsewhere are refused. */
  org: string;
  /** Whether a suite covers `owner/name`: links to other repositories are refused. */
  covers: (repo: string) => boolean;
  maxMembers: number;
  maxRepos: number;
  /** Pairs removed with `/tandem unlink` (see `pairKey`). */
  unlinked?: ReadonlySet<string>;
}

export interface Refusal {
  from: string;
  to: string;
  reason: string;
}

export interface LinkedSet {
  /** Open members, seed first, then in discovery order. */
  members: string[];
  /** Linked PRs that are closed or merged: they left the set. */
  left: Array<{ key: string; state: 'closed' | 'merged' }>;
  refused: Refusal[];
  /** Keys of accepted neighbours not loaded yet. */
  missing: string[];
}

export const DEFAULT_MAX_MEMBERS = 8;

/** An undirected pair, order-independent. */
export function pairKey(a: string, b: string): string {
  return a < b ? `${a} ${b}` : `${b} ${a}`;
}

function refusalReason(to: PullRef, policy: SetPolicy, repos: RepoSet): string | undefined {
  const name = repoFullName(to);
  if (repoKey(to.owner) !== repoKey(policy.org)) return `${name} is outside the ${policy.org} organization`;
  if (!policy.covers(repoKey(to))) return `no suite covers ${name}`;
  if (!repos.has(to) && repos.size >= policy.maxRepos) {
    return `the linked change already spans ${policy.maxRepos} repositories (the limit)`;
  }
  return undefined;
}

export function expandLinkedSet(
  seed: string,
  nodes: ReadonlyMap<string, LinkNode>,
  policy: SetPolicy,
): LinkedSet {
  // Undirected adjacency over every known node: reverse links come from the other side's body.
  const adjacency = new Map<string, Map<string, PullRef>>();
  const connect = (a: string, b: string, bRef: PullRef) => {
    if (a === b || policy.unlinked?.has(pairKey(a, b))) return;
    const m = adjacency.get(a) ?? new Map<string, PullRef>();
    adjacency.set(a, m);
    m.set(b, bRef);
  };
  for (const [key, node] of nodes) {
    for (const to of node.links) {
      const toKey = pullKey(to);
      connect(key, toKey, to);
      connect(toKey, key, node.ref);
    }
  }

  const result: LinkedSet = { members: [], left: [], refused: [], missing: [] };
  const visited = new Set<string>([seed]);
  const repos = new RepoSet();
  const queue = [seed];
  while (queue.length > 0) {
    const key = queue.shift()!;
    const node = nodes.get(key);
    if (!node) {
      result.missing.push(key);
      continue;
    }
    if (node.state !== 'open') {
      result.left.push({ key, state: node.state });
      continue;
    }
    result.members.push(key);
    repos.add(repoOfPullKey(key));
    for (const [next, ref] of adjacency.get(key) ?? []) {
      if (visited.has(next)) continue;
      const reason =
        refusalReason(ref, policy, repos) ??
        (result.members.length + queue.length >= policy.maxMembers
          ? `the linked change already has ${policy.maxMembers} members (the limit)`
          : undefined);
      if (reason) {
        // A refused link may still be reached through an accepted path later; refuse it once.
        if (!result.refused.some((r) => r.to === next)) result.refused.push({ from: key, to: next, reason });
        continue;
      }
      visited.add(next);
      queue.push(next);
    }
  }
  // Something refused for the cap but reached later is a member, not a refusal.
  const members = new Set(result.members);
  result.refused = result.refused.filter((r) => !members.has(r.to));
  return result;
}

/** A stable name for a set, used to debounce bursts: its smallest member key. */
export function setKey(members: readonly string[]): string {
  return [...members].sort()[0] ?? '';
}
