/**
 * The linked set around a PR as the link index already knows it, without asking GitHub: what
 * the service names a set by (its debounce key) and what a running evaluation covers (a change
 * to any of these PRs makes it stale). The same rules as the evaluation's resolved set
 * (`resolve-set.ts`): core's `expandLinkedSet` over the same nodes — links both ways, `/tandem
 * unlink` pairs, other organizations and repositories no suite covers refused, same-branch PRs
 * joined when `group_by_branch` is on — except the member caps: a capped walk depends on where it
 * starts, so one set would get a different name from each member. The evaluation applies the
 * caps from the set's stable name.
 */
import { expandLinkedSet, type LinkNode, type SetPolicy } from '../../core/linked-set.ts';
import type { OrgConfig } from '../../core/org-config.schema.ts';
import { parsePullKey } from '../../core/pull-ref.ts';
import { RepoSet } from '../../core/repo-name.ts';
import type { Store } from '../store/store.ts';

/** Far above any configured cap: only a runaway index stops the walk. */
const INDEX_WALK_LIMIT = 64;

/**
 * Open members around `seed`, plus linked PRs the index has never seen (they may be open: a
 * webhook for them can still arrive and must land on the same name). Closed and merged PRs left.
 */
export function indexedSet(store: Store, seed: string, config: OrgConfig | undefined): string[] {
  const covered = config ? new RepoSet(config.suites.flatMap((s) => s.repos)) : undefined;
  const policy: SetPolicy = {
    org: parsePullKey(seed).owner,
    covers: (repo) => covered?.has(repo) ?? true,
    maxMembers: INDEX_WALK_LIMIT,
    maxRepos: INDEX_WALK_LIMIT,
    unlinked: store.links.unlinkedPairs(),
  };
  const nodes = new Map<string, LinkNode>();
  const unknown = new Set<string>();
  const load = (key: string) => {
    const pull = store.pulls.get(key);
    if (!pull) {
      unknown.add(key);
      return;
    }
    const links = [...pull.links];
    // Reverse links: the other side's node carries them once loaded, but it must be loaded.
    for (const from of store.links.to(key)) links.push(parsePullKey(from));
    if (pull.state === 'open' && config?.group_by_branch)
      for (const p of store.pulls.withHeadRef(pull.installationId, pull.headRef))
        if (p.key !== key) links.push(parsePullKey(p.key));
    nodes.set(key, { ref: parsePullKey(key), state: pull.state, links });
  };
  load(seed);
  if (unknown.has(seed)) return [seed];
  for (;;) {
    const set = expandLinkedSet(seed, nodes, policy);
    const todo = set.missing.filter((k) => !unknown.has(k));
    if (todo.length === 0) return [...set.members, ...set.missing];
    for (const k of todo) load(k);
  }
}
