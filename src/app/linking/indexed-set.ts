/**
 * The linked set around a PR as the link index already knows it, without asking GitHub: what
 * the service names a set by (its debounce key) and what a running evaluation covers (a change
 * to any of these PRs makes it stale). The same rules as the evaluation's resolved set
 * (`resolve-set.ts`): core's `expandLinkedSet` over the same nodes — every link a member makes,
 * links to it only with a writer's consent as last seen (`link-consent.ts`), privacy by the
 * repositories' visibility as recorded, `/tandem unlink` pairs, other organizations and
 * repositories no suite covers refused, same-branch PRs of the org's own branches joined when
 * `group_by_branch` is on —
 * except the member caps: a capped walk depends on where it starts, so one set would get a
 * different name from each member. The evaluation applies the caps from the set's stable name.
 */
import { expandLinkedSet, type LinkNode, type SetPolicy } from '../../core/linked-set.ts';
import { type OrgConfig, suiteFor } from '../../core/org-config.schema.ts';
import { parsePullKey, repoOfPullKey } from '../../core/pull-ref.ts';
import { RepoSet } from '../../core/repo-name.ts';
import { privacyRank } from '../../core/repo-visibility.ts';
import type { Store } from '../store/store.ts';
import { groupsByBranch } from './branch-grouping.ts';
import { StoredFacts } from './stored-facts.ts';

/** Far above any configured cap: only a runaway index stops the walk. */
const INDEX_WALK_LIMIT = 64;

/**
 * The members `seed`'s set speaks for, plus linked PRs the index has never seen (they may be
 * open: a webhook for them can still arrive and must land on the same name). Closed and merged
 * PRs left; PRs only needed (they did not join) are not part of the name.
 */
export async function indexedSet(
  store: Store,
  seed: string,
  config: OrgConfig | undefined,
): Promise<string[]> {
  // Nothing writes to the store during the walk (it only reads), so facts read once stay true.
  const facts = new StoredFacts(store);
  const covered = config ? new RepoSet(config.suites.flatMap((s) => s.repos)) : undefined;
  const shares = config ? (suiteFor(config, repoOfPullKey(seed))?.share_private ?? false) : false;
  const policy: SetPolicy = {
    org: parsePullKey(seed).owner,
    covers: (repo) => covered?.has(repo) ?? true,
    maxMembers: INDEX_WALK_LIMIT,
    maxRepos: INDEX_WALK_LIMIT,
    unlinked: await store.links.unlinkedPairs(),
    confirmed: facts.confirmed,
    ...(shares ? {} : { privacy: (key: string) => privacyRank(facts.visibility(key)) }),
  };
  const nodes = new Map<string, LinkNode>();
  const unknown = new Set<string>();
  const load = async (key: string) => {
    const pull = await store.pulls.get(key);
    if (!pull) {
      unknown.add(key);
      return;
    }
    const links = [...pull.links];
    // Only PRs whose branch is the org's own group by its name (`branch-grouping.ts`).
    if (pull.state === 'open' && config?.group_by_branch && (await groupsByBranch(store, pull)))
      for (const p of await store.pulls.withHeadRef(pull.installationId, pull.headRef))
        if (p.key !== key && (await groupsByBranch(store, p))) links.push(parsePullKey(p.key));
    nodes.set(key, { ref: parsePullKey(key), state: pull.state, links });
  };
  await load(seed);
  if (unknown.has(seed)) return [seed];
  for (;;) {
    await facts.readNodes(nodes);
    await facts.readPulls([seed]);
    const set = expandLinkedSet(seed, nodes, policy);
    // PRs linking to a member must be known for the walk to weigh their links, but only those
    // whose link counts (consent): a stranger's link cannot take it in, so it is not even loaded
    // (500 strangers linking to a PR cost each naming of its set nothing).
    const linkers: string[] = [];
    for (const m of set.members)
      for (const k of await store.links.to(m)) {
        await facts.readLinks([[k, m]]);
        if (facts.confirmed(k, m)) linkers.push(k);
      }
    const todo = [...set.missing, ...linkers].filter((k) => !unknown.has(k) && !nodes.has(k));
    if (todo.length === 0) return [...set.joined, ...set.missing];
    for (const k of new Set(todo)) await load(k);
  }
}
