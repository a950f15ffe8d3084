/**
 * Whether a link counts backwards: `A → B` (A needs B) takes A into B's set only when someone with
 * write access to B's repository wrote it (A's author) or confirmed it (`/tandem link` by such a
 * writer). The answers come from GitHub (`canWrite`) and are kept in the store, so the link index
 * (`indexed-set.ts`) decides a set's name the same way the evaluation (`resolve-set.ts`) decides
 * its members; walks read them ahead through `stored-facts.ts`.
 */
import { parsePullKey, pullKey, repoOfPullKey } from '../../core/pull-ref.ts';
import { loginKey, RepoSet, repoKey, sameRepo } from '../../core/repo-name.ts';
import type { GitHubPort } from '../port/github-port.ts';
import type { Store } from '../store/store.ts';

/** Past this many repositories one PR links to, its links are not worth asking GitHub about. */
const MAX_REPOS_ASKED = 32;

/**
 * Asks GitHub whether the writers of `from`'s links (its author, its `/tandem link` commanders)
 * have write access to the repositories those links point at, and records the answers. `asked`
 * spares questions already answered in this round (`repo login`); `only` picks the links asked about.
 */
export async function refreshConsent(
  gh: GitHubPort,
  store: Store,
  from: string,
  author: string | undefined,
  asked = new Set<string>(),
  only: (to: string) => boolean = () => true,
): Promise<void> {
  const org = parsePullKey(from).owner;
  const targets = (await store.links.from(from)).map(pullKey);
  const repos = new RepoSet();
  for (const to of targets.filter(only)) {
    const repo = repoOfPullKey(to);
    if (!sameRepo(parsePullKey(to).owner, org)) continue;
    if (!repos.has(repo) && repos.size >= MAX_REPOS_ASKED) continue;
    repos.add(repo);
    for (const login of await store.links.writersOf(from, to, author)) {
      const q = `${repoKey(repo)} ${loginKey(login)}`;
      if (asked.has(q)) continue;
      asked.add(q);
      await store.links.recordWriter(repo, login, await gh.canWrite(repo, login));
    }
  }
}
