/**
 * Lanes: which items ahead of an item its speculative state includes. Two items conflict when they
 * change the same repository on the same base branch, or when one changes a repository the
 * other's evaluation checks out through a wiring edge; items that share nothing run in
 * independent lanes and never wait for each other. Repository names compare case-insensitively,
 * as GitHub's do.
 */
import { repoKey } from '../repo-name.ts';
import type { ItemState, QueueItem } from './queue-state.schema.ts';

const key = (repo: string) => repoKey(repo);

function changed(item: QueueItem): { branches: Set<string>; repos: Set<string> } {
  return {
    branches: new Set(item.members.map((m) => `${key(m.repo)}@${m.baseBranch}`)),
    repos: new Set(item.members.map((m) => key(m.repo))),
  };
}

export function conflicts(a: QueueItem, b: QueueItem): boolean {
  const ca = changed(a);
  const cb = changed(b);
  for (const x of ca.branches) if (cb.branches.has(x)) return true;
  for (const r of a.wiringRepos ?? []) if (cb.repos.has(key(r))) return true;
  for (const r of b.wiringRepos ?? []) if (ca.repos.has(key(r))) return true;
  return false;
}

/**
 * The items ahead of `itemId` (in queue order, which is merge order) that its state includes:
 * those it conflicts with that are still expected to land. A failing item is no longer assumed
 * by anyone: the items behind it are evaluated without it.
 */
export function aheadOf(items: readonly ItemState[], itemId: string): string[] {
  const at = items.findIndex((x) => x.item.id === itemId);
  if (at < 0) return [];
  const self = items[at] as ItemState;
  return items
    .slice(0, at)
    .filter((x) => x.status !== 'failing' && conflicts(x.item, self.item))
    .map((x) => x.item.id);
}
