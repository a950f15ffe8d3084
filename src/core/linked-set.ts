/**
 * The linked change around a seed pull request. A link is consent to *need* a PR, not to join
 * it: the walk follows every link a member makes (what it needs), and a link *to* a member only
 * when that member's side agreed (`policy.confirmed`: a writer of the member's repository wrote or
 * confirmed it). Members the seed cannot reach back are *needed*: evaluated with the set, never
 * published on or merged with it. Cycles are normal. Pure: the caller loads the PRs that
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
  /**
   * Whether the link `from → to` also counts backwards (`to`'s set takes `from` in): someone
   * with write access to `to`'s repository wrote or confirmed it. Unset: every link counts both
   * ways (only for callers that know nothing about who wrote a link).
   */
  confirmed?: (from: string, to: string) => boolean;
  /**
   * How private a PR's repository is (0 public, 1 internal, 2 private). Given, the walk never
   * enters a PR more private than the seed (it is not even named), and only members at least as
   * private as every member join the set (the others are needed, never reported on).
   */
  privacy?: (key: string) => number;
}

export interface Refusal {
  from: string;
  to: string;
  reason: string;
  /**
   * The link is not one of this set's members' (a link to a member its side never confirmed, or
   * one a needed PR makes): listed folded, as other PRs' business.
   */
  foreign?: boolean;
  /**
   * The PR refused would be a member this set speaks for but for the caps: its own check may say
   * so. Any other refused PR is only named; its check and comment are never touched.
   */
  member?: boolean;
}

export interface LinkedSet {
  /** Open members evaluated together, seed first, then in discovery order. */
  members: string[];
  /** The members this set speaks for (its comment, checks and merge): they reach the seed back. */
  joined: string[];
  /** Linked PRs that are closed or merged: they left the set. */
  left: Array<{ key: string; state: 'closed' | 'merged' }>;
  refused: Refusal[];
  /** Keys of accepted neighbours not loaded yet. */
  missing: string[];
}

export const DEFAULT_MAX_MEMBERS = 8;

/** Why a link from another PR to a member was not followed. */
export const UNCONFIRMED_REASON = "not followed (needs a writer's confirmation)";

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

/** The walk's directed edges: `u ⇒ v` when u links v, or v links u and u's side confirmed it. */
function walkEdges(nodes: ReadonlyMap<string, LinkNode>, policy: SetPolicy) {
  const out = new Map<string, Map<string, PullRef>>();
  const unconfirmed = new Map<string, string[]>();
  const add = (a: string, b: string, bRef: PullRef) => {
    if (a === b || policy.unlinked?.has(pairKey(a, b))) return;
    const m = out.get(a) ?? new Map<string, PullRef>();
    out.set(a, m);
    m.set(b, bRef);
  };
  const confirmed = policy.confirmed ?? (() => true);
  for (const [key, node] of nodes) {
    for (const to of node.links) {
      const toKey = pullKey(to);
      add(key, toKey, to);
      if (toKey === key || policy.unlinked?.has(pairKey(key, toKey))) continue;
      const back = nodes.get(toKey)?.links.some((l) => pullKey(l) === key) ?? false;
      if (back) continue;
      if (confirmed(key, toKey)) add(toKey, key, node.ref);
      else unconfirmed.set(toKey, [...(unconfirmed.get(toKey) ?? []), key]);
    }
  }
  return { out, unconfirmed };
}

export function expandLinkedSet(
  seed: string,
  nodes: ReadonlyMap<string, LinkNode>,
  policy: SetPolicy,
): LinkedSet {
  const { out, unconfirmed } = walkEdges(nodes, policy);
  const rank = policy.privacy;
  const seedRank = rank?.(seed) ?? 0;
  // More private than the seed: not walked, not named.
  const hidden = (key: string) => rank !== undefined && rank(key) > seedRank;

  const result: LinkedSet = { members: [], joined: [], left: [], refused: [], missing: [] };
  const refusedTo = new Set<string>();
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
    for (const [next, ref] of out.get(key) ?? []) {
      if (visited.has(next) || (nodes.has(next) && hidden(next))) continue;
      const reason =
        refusalReason(ref, policy, repos) ??
        (result.members.length + queue.length >= policy.maxMembers
          ? `the linked change already has ${policy.maxMembers} members (the limit)`
          : undefined);
      if (reason) {
        // A refused link may still be reached through an accepted path later; refuse it once.
        if (!refusedTo.has(next)) {
          refusedTo.add(next);
          result.refused.push({ from: key, to: next, reason });
        }
        continue;
      }
      visited.add(next);
      queue.push(next);
    }
  }
  const members = new Set(result.members);
  // Joined: members that reach the seed back over the walk's edges, and (with privacy) are at
  // least as private as every member, so nothing of a more private one reaches their page.
  const top = Math.max(0, ...result.members.map((k) => rank?.(k) ?? 0));
  const joined = new Set<string>([seed]);
  const back = [seed];
  while (back.length > 0) {
    const v = back.pop()!;
    for (const u of members)
      if (!joined.has(u) && out.get(u)?.has(v) && (rank?.(u) ?? 0) >= top) {
        joined.add(u);
        back.push(u);
      }
  }
  result.joined = result.members.filter((k) => joined.has(k));
  // Something refused for the cap but reached later is a member, not a refusal.
  result.refused = result.refused
    .filter((r) => !members.has(r.to))
    .map((r) => {
      if (!joined.has(r.from)) return { ...r, foreign: true };
      // Known to link back (or confirmed): it would have joined. Unknown: only named.
      return out.get(r.to)?.has(r.from) ? { ...r, member: true } : r;
    });
  // Links to a joined member its side never confirmed: named, not followed.
  for (const to of result.joined)
    for (const from of unconfirmed.get(to) ?? [])
      if (!members.has(from) && !(nodes.has(from) && hidden(from)))
        result.refused.push({ from, to, reason: UNCONFIRMED_REASON, foreign: true });
  return result;
}

/** A stable name for a set, used to debounce bursts: its smallest member key. */
export function setKey(members: readonly string[]): string {
  return [...members].sort()[0] ?? '';
}
