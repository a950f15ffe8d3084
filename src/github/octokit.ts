/**
 * The Octokit the GitHub port works with: Probot's (retry + throttling), as an instance type.
 * Kept in one place so the port does not depend on how the App builds its clients.
 */
import type { ProbotOctokit } from 'probot';
import type { RepoParts } from '../core/repo-name.ts';

export type GitHub = ProbotOctokit;

/** Octokit errors carry the HTTP status; anything else has none. */
export function httpStatus(e: unknown): number | undefined {
  const s = (e as { status?: unknown })?.status;
  return typeof s === 'number' ? s : undefined;
}

/** Splits `owner/name`. */
export function repoId(fullName: string): RepoParts {
  const i = fullName.indexOf('/');
  return { owner: fullName.slice(0, i), repo: fullName.slice(i + 1) };
}
