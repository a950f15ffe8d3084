/**
 * The speculative state a queue item is evaluated on (issue 28): in each repository and base
 * branch it touches, the base tip plus the items ahead of it that touch the same branch, in merge
 * order, each merged in as that item's tested commit; then the item's own heads merged onto that
 * (its tested commit, what it lands as). Every tested commit is built once and kept
 * (`store.setQueue.keepCommit`): the item behind reuses exactly the commit the item ahead is tested
 * and lands as, so landing the one behind is a fast-forward of the one ahead.
 *
 * Repositories an item ahead changes but this item does not touch are pinned too (as context),
 * so the item is evaluated with everything it assumes will have landed.
 */

import { repoKey } from '../../core/repo-name.ts';
import type { GitHub } from '../../github/octokit.ts';
import { repoId } from '../../github/octokit.ts';
import { branchTip } from '../../github/pull-requests.ts';
import { buildTestedCommit } from '../../github/tested-commits.ts';
import type { Store } from '../store/store.ts';
import type { QueueItemRecord, TestedRepo } from '../store/store-set-queue.ts';

export type SpeculativeState = { tested: TestedRepo[]; context: TestedRepo[] } | { conflict: string };

const branchKey = (repo: string, branch: string) => `${repoKey(repo)} ${branch}`;

/** The item's heads in one repository and branch, in merge order. */
function headsIn(item: QueueItemRecord, key: string): { heads: string[]; pulls: string[] } {
  const ms = item.members.filter((m) => branchKey(m.repo, m.baseBranch) === key);
  return { heads: ms.map((m) => m.headSha), pulls: ms.map((m) => m.pull) };
}

export async function speculativeState(
  gh: GitHub,
  store: Store,
  item: QueueItemRecord,
  ahead: readonly QueueItemRecord[],
): Promise<SpeculativeState> {
  const branches = new Map<string, { repo: string; baseBranch: string }>();
  for (const m of [...ahead.flatMap((a) => a.members), ...item.members])
    branches.set(branchKey(m.repo, m.baseBranch), { repo: m.repo, baseBranch: m.baseBranch });
  const tested: TestedRepo[] = [];
  const context: TestedRepo[] = [];
  for (const [key, { repo, baseBranch }] of branches) {
    const tip = await branchTip(gh, repoId(repo), baseBranch);
    let onto = tip;
    for (const a of ahead) {
      const heads = headsIn(a, key);
      if (heads.heads.length === 0) continue;
      const built = await testedCommit(gh, store, { repo, baseBranch, onto, ...heads, itemId: a.id });
      if ('conflict' in built) return { conflict: `${built.conflict} (in ${a.seed}'s set, ahead)` };
      onto = built.sha;
    }
    const own = headsIn(item, key);
    if (own.heads.length === 0) {
      if (onto !== tip) context.push({ repo, baseBranch, base: tip, sha: onto });
      continue;
    }
    const built = await testedCommit(gh, store, { repo, baseBranch, onto, ...own, itemId: item.id });
    if ('conflict' in built) return built;
    tested.push({ repo, baseBranch, base: onto, sha: built.sha });
  }
  return { tested, context };
}

/** Builds on one item's temporary branch in one repository run one at a time (they share it). */
const building = new Map<string, Promise<unknown>>();

/** One tested commit, built once for the same repository, branch, base and heads. */
async function testedCommit(
  gh: GitHub,
  store: Store,
  a: { repo: string; baseBranch: string; onto: string; heads: string[]; pulls: string[]; itemId: string },
): Promise<{ sha: string } | { conflict: string }> {
  const key = [repoKey(a.repo), a.baseBranch, a.onto, ...a.heads].join(' ');
  const lock = `${a.itemId} ${repoKey(a.repo)}`;
  const before = building.get(lock) ?? Promise.resolve();
  const mine = before
    .catch(() => {})
    .then(async () => {
      const kept = await store.setQueue.builtCommit(key);
      if (kept) return { sha: kept };
      const built = await buildTestedCommit(gh, a);
      if ('sha' in built) await store.setQueue.keepCommit(key, built.sha);
      return built;
    });
  building.set(lock, mine);
  try {
    return await mine;
  } finally {
    if (building.get(lock) === mine) building.delete(lock);
  }
}
