/**
 * What a pull request's page may show: the one rule behind every text the App writes on a PR
 * (its check, its sticky comment, its `/tandem merge` comment) and every place the App sends a
 * set's names to (a workflow whose logs anyone who reads its repository reads). Nothing of a
 * repository more private than the page's (private or internal vs public) appears there: not its
 * name, a PR number, a SHA, a test name or a merge commit — unless the suite shares private
 * repositories (`share_private`). Pure; ranks come from `repo-visibility.ts`.
 *
 * Unknown visibility counts against showing in both directions: an item of unknown visibility is
 * private, a page of unknown visibility is public.
 */
import { repoOfPullKey } from './pull-ref.ts';
import { privacyRank, type RepoVisibility } from './repo-visibility.ts';

/** How private a page is: unknown counts as public (shown to the most readers). */
export function pageRank(v: RepoVisibility | undefined): number {
  return v === undefined ? 0 : privacyRank(v);
}

/** How private an item is: unknown counts as private (never shown by mistake). */
export function itemRank(v: RepoVisibility | undefined): number {
  return privacyRank(v);
}

/** How private a PR key (`owner/name#n`) or a repository (`owner/name`) is, as far as the caller knows. */
export type RankOf = (keyOrRepo: string) => number;

/** The rule itself: something may appear on a page at least as private as it is. */
export function mayShow(page: number, item: number): boolean {
  return item <= page;
}

/** A page's filter over PR keys (or repositories): what `page` may name. */
export function pageSees(page: number, rankOf: RankOf, sharePrivate = false): (keyOrRepo: string) => boolean {
  return (k) => sharePrivate || mayShow(page, rankOf(k));
}

/** The least private of some items (what every one of their pages may show): public when there are none. */
export function leastPrivate(ranks: readonly number[]): number {
  return ranks.length === 0 ? 0 : Math.min(...ranks);
}

/** A linked set as a page shows it: its members, who left, and the links not followed. */
export interface PageSet<M, L, R> {
  members: M[];
  left: L[];
  refused: R[];
}

/**
 * The set as `page` may see it: members, left PRs and refused links (both ends) of repositories
 * more private than the page are dropped, not even counted.
 */
export function setForPage<
  M extends { ref: { owner: string; repo: string; number: number } },
  L extends { key: string },
  R extends { from: string; to: string },
  V extends PageSet<M, L, R>,
>(view: V, sees: (keyOrRepo: string) => boolean): V {
  return {
    ...view,
    members: view.members.filter((m) => sees(`${m.ref.owner}/${m.ref.repo}#${m.ref.number}`)),
    left: view.left.filter((l) => sees(l.key)),
    refused: view.refused.filter((r) => sees(r.from) && sees(r.to)),
  };
}

/** Merge steps (or any keyed rows) `page` may see. */
export function rowsForPage<T extends { key: string }>(
  rows: readonly T[],
  sees: (key: string) => boolean,
): T[] {
  return rows.filter((r) => sees(r.key));
}

/** Repositories of PR keys, for callers that judge by repository. */
export function reposOfKeys(keys: readonly string[]): string[] {
  return [...new Set(keys.map(repoOfPullKey))];
}

/** What a page reads instead of a line that names a PR it may not see. */
export const HIDDEN_LINE = 'a linked pull request this one may not name is involved: see its own comment';

/**
 * A status made of keyed rows and free lines (the `/tandem merge` comment) as a page may see it:
 * rows of PRs it may not see left out, lines naming one of `named` it may not see replaced.
 */
export function statusForPage<
  S extends { steps: Array<{ key: string }>; reasons?: string[]; notes?: string[] },
>(status: S, sees: (key: string) => boolean, named: readonly string[]): S {
  const hidden = named.filter((k) => !sees(k)).map((k) => k.toLowerCase());
  if (hidden.length === 0) return status;
  const clean = (lines: string[] | undefined) =>
    lines?.map((l) => (hidden.some((k) => l.toLowerCase().includes(k)) ? HIDDEN_LINE : l));
  const reasons = clean(status.reasons);
  const notes = clean(status.notes);
  return {
    ...status,
    steps: rowsForPage(status.steps, sees),
    ...(reasons ? { reasons } : {}),
    ...(notes ? { notes } : {}),
  };
}
