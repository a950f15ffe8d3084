/**
 * Repository names compare without case: GitHub treats `Acme/API` and `acme/api` as one
 * repository, and users, payloads and case files spell them either way. Every comparison of
 * `owner/name` strings goes through here instead of ad-hoc `toLowerCase()` calls. Pure.
 */

// GitHub's alphabet for owner and repository names.
const PART = /^[A-Za-z0-9_.-]+$/;

/** One part of a name (owner or repository): GitHub's alphabet, never `.` or `..` (they go into paths). */
export function isRepoPart(text: string): boolean {
  return PART.test(text) && text !== '.' && text !== '..';
}

/** A repository as its two parts (a PR reference, Octokit's `{owner, repo}`). */
export interface RepoParts {
  owner: string;
  repo: string;
}

/** `owner/name` as written, from its parts. */
export function repoFullName(r: RepoParts): string {
  return `${r.owner}/${r.repo}`;
}

/** The comparison key of a repository name (`owner/name`, or one part of it). */
export function repoKey(name: string | RepoParts): string {
  return (typeof name === 'string' ? name : repoFullName(name)).toLowerCase();
}

/**
 * The comparison key of a GitHub login (a user's, or an owner's: the first part of a name). GitHub
 * ignores its case as it does a repository name's: who may write where is stored and asked by it.
 */
export function loginKey(login: string): string {
  return repoKey(login);
}

/** Whether two names (or parts) denote the same repository. */
export function sameRepo(a: string | RepoParts, b: string | RepoParts): boolean {
  return repoKey(a) === repoKey(b);
}

/** Splits `owner/name`; undefined unless it is exactly two valid parts (see isRepoPart). */
export function splitRepo(name: string): RepoParts | undefined {
  const i = name.indexOf('/');
  if (i < 0) return undefined;
  const owner = name.slice(0, i);
  const repo = name.slice(i + 1);
  return isRepoPart(owner) && isRepoPart(repo) ? { owner, repo } : undefined;
}

/**
 * A set of repository names that answers `has` without case. Keeps the first spelling seen, so
 * messages can quote a name as the user wrote it.
 */
export class RepoSet implements Iterable<string> {
  readonly #names = new Map<string, string>();

  constructor(names: Iterable<string | RepoParts> = []) {
    for (const n of names) this.add(n);
  }

  add(name: string | RepoParts): this {
    const key = repoKey(name);
    if (!this.#names.has(key)) this.#names.set(key, typeof name === 'string' ? name : repoFullName(name));
    return this;
  }

  has(name: string | RepoParts): boolean {
    return this.#names.has(repoKey(name));
  }

  /** The spelling first added for this repository, if any. */
  get(name: string | RepoParts): string | undefined {
    return this.#names.get(repoKey(name));
  }

  get size(): number {
    return this.#names.size;
  }

  [Symbol.iterator](): Iterator<string> {
    return this.#names.values();
  }
}

/** A map keyed by repository name without case. */
export class RepoMap<V> {
  readonly #entries = new Map<string, V>();

  set(name: string | RepoParts, value: V): this {
    this.#entries.set(repoKey(name), value);
    return this;
  }

  get(name: string | RepoParts): V | undefined {
    return this.#entries.get(repoKey(name));
  }

  has(name: string | RepoParts): boolean {
    return this.#entries.has(repoKey(name));
  }
}
