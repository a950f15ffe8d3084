/**
 * Pull request references as users write them, in one parser for every face: the App's
 * `Depends-On:` lines and `/tandem link` commands, the Action's `pull-requests` input, the CLI.
 * Pure: no I/O.
 *
 * Accepted forms:
 * - `owner/name#N`;
 * - a PR URL on any host (github.com, GitHub Enterprise, a local stand-in), `http` or `https`,
 *   with `/pull/N` or `/pulls/N`, optionally followed by a trailing slash, a sub-page
 *   (`/files`, `/commits/…`), a query or a fragment; wrapped in `<…>` as Markdown autolinks are;
 * - `#N`, relative to the repository the text was written in (only when that is given).
 */
import { isRepoPart, type RepoParts, repoFullName, repoKey } from './repo-name.ts';

/** A pull request reference: `owner/name#number`. */
export interface PullRef extends RepoParts {
  number: number;
}

const NUMBER = /^[1-9]\d{0,9}$/;
const SHORT = /^#([1-9]\d{0,9})$/;

function validParts(owner: string, repo: string, number: string): PullRef | undefined {
  if (!isRepoPart(owner) || !isRepoPart(repo)) return undefined;
  if (!NUMBER.test(number)) return undefined;
  const n = Number(number);
  return Number.isSafeInteger(n) && n <= 2 ** 31 - 1 ? { owner, repo, number: n } : undefined;
}

function fromUrl(text: string): PullRef | undefined {
  if (!/^https?:\/\//i.test(text)) return undefined;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return undefined;
  }
  const parts = url.pathname.split('/').filter(Boolean);
  const [owner, repo, kind, number] = parts;
  if (!owner || !repo || !number || (kind !== 'pull' && kind !== 'pulls')) return undefined;
  return validParts(owner, repo, number);
}

function fromFull(text: string): PullRef | undefined {
  const hash = text.lastIndexOf('#');
  const slash = text.indexOf('/');
  if (hash < 0 || slash <= 0 || slash > hash || text.indexOf('/', slash + 1) !== -1) return undefined;
  return validParts(text.slice(0, slash), text.slice(slash + 1, hash), text.slice(hash + 1));
}

/**
 * One reference; `self` resolves `#N` (omit it where a bare number means nothing, e.g. an Action
 * input). Returns undefined for anything else.
 */
export function parsePullRef(text: string, self?: RepoParts): PullRef | undefined {
  let t = text.trim();
  if (t.startsWith('<') && t.endsWith('>')) t = t.slice(1, -1);
  const short = SHORT.exec(t);
  if (short) return self ? validParts(self.owner, self.repo, short[1]!) : undefined;
  return fromUrl(t) ?? fromFull(t);
}

/** `owner/name#N` as the user wrote the names: for messages. */
export function formatPullRef(ref: PullRef): string {
  return `${repoFullName(ref)}#${ref.number}`;
}

/** `owner/name#N` without case: the key the link index, the sets and the store use. */
export function pullKey(ref: PullRef): string {
  return `${repoKey(ref)}#${ref.number}`;
}

/** The reference a `pullKey` (or any `owner/name#N`) stands for; throws on anything else. */
export function parsePullKey(key: string): PullRef {
  const ref = fromFull(key);
  if (!ref) throw new Error(`not a pull request key: ${key}`);
  return ref;
}

/** The repository part of a `pullKey`: `owner/name`. */
export function repoOfPullKey(key: string): string {
  return key.slice(0, key.lastIndexOf('#'));
}

/** Whether two references name the same pull request (names compared without case). */
export function samePull(a: PullRef, b: PullRef): boolean {
  return pullKey(a) === pullKey(b);
}
