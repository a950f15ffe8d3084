/**
 * Context repository references: a repository in the workspace without a PR, written
 * `owner/name` (its default branch) or `owner/name@ref`. The App writes them into the
 * evaluator workflow's `context` input; the Action reads them back. Pure.
 */
import { type RepoParts, splitRepo } from './repo-name.ts';

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
  const parts = splitRepo(name);
  if (!parts) return undefined;
  if (ref !== undefined && (ref === '' || ref.startsWith('-') || /\s/.test(ref))) return undefined;
  return { owner: parts.owner, repo: parts.repo, ...(ref !== undefined ? { ref } : {}) };
}

/** `owner/name@ref` (or `owner/name`): what parseContextRef reads back. */
export function formatContextRef(c: { repo: string; ref?: string }): string {
  return c.ref ? `${c.repo}@${c.ref}` : c.repo;
}
