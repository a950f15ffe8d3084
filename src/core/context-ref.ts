/**
 * Context repository references: a repository in the workspace without a PR, written
 * `owner/name` (its default branch) or `owner/name@ref`. The App writes them into the
 * evaluator workflow's `context` input; the Action reads them back. Pure.
 */
import { isRepoPart, type RepoParts } from './repo-name.ts';

export interface ContextRef extends RepoParts {
  /** Branch, tag or commit; absent: the default branch. */
  ref?: string;
}

/**
 * `owner/name` or `owner/name@ref`; undefined for anything else, or for a ref git could read
 * as an option (`-…`) or that holds white space.
 */
export function parseContextRef(text: string): ContextRef | undefined {
  const at = text.indexOf('@');
  const name = at < 0 ? text : text.slice(0, at);
  const ref = at < 0 ? undefined : text.slice(at + 1);
  const slash = name.indexOf('/');
  if (slash < 0) return undefined;
  const owner = name.slice(0, slash);
  const repo = name.slice(slash + 1);
  if (!isRepoPart(owner) || !isRepoPart(repo)) return undefined;
  if (ref !== undefined && (ref === '' || ref.startsWith('-') || /\s/.test(ref))) return undefined;
  return { owner, repo, ...(ref !== undefined ? { ref } : {}) };
}

/** `owner/name@ref` (or `owner/name`): what parseContextRef reads back. */
export function formatContextRef(c: { repo: string; ref?: string }): string {
  return c.ref ? `${c.repo}@${c.ref}` : c.repo;
}
