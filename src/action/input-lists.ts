/**
 * The list inputs, `pull-requests` and `context`: lines, or words separated by spaces or commas
 * (a `workflow_dispatch` text input is one line). Pull request references are the core's
 * (`owner/repo#N` or a PR URL on any host); a context repository is `owner/repo` (at its default
 * branch) or `owner/repo@ref`.
 */
import { z } from 'zod';
import { type ContextRef, parseContextRef } from '../core/context-ref.ts';
import { type PullRef, parsePullRef, samePull } from '../core/pull-ref.ts';
import { RepoSet, repoFullName } from '../core/repo-name.ts';

const words = (text: string) => text.split(/[\s,]+/).filter(Boolean);

export const pullRequestsSchema = z.string().transform((text, ctx) => {
  const pulls: PullRef[] = [];
  for (const item of words(text)) {
    const ref = parsePullRef(item);
    if (!ref) {
      ctx.addIssue({ code: 'custom', message: `expected lines of "owner/repo#N", got "${item}"` });
      return z.NEVER;
    }
    if (!pulls.some((p) => samePull(p, ref))) pulls.push(ref);
  }
  if (pulls.length === 0) {
    ctx.addIssue({ code: 'custom', message: 'expected at least one line "owner/repo#N"' });
    return z.NEVER;
  }
  return pulls;
});

/** One entry per repository. */
export const contextSchema = z.string().transform((text, ctx) => {
  const refs: ContextRef[] = [];
  const seen = new RepoSet();
  for (const item of words(text)) {
    const ref = parseContextRef(item);
    if (!ref) {
      ctx.addIssue({
        code: 'custom',
        message: `expected lines of "owner/repo" or "owner/repo@ref", got "${item}"`,
      });
      return z.NEVER;
    }
    if (seen.has(ref)) {
      ctx.addIssue({ code: 'custom', message: `${repoFullName(ref)} is listed more than once` });
      return z.NEVER;
    }
    seen.add(ref);
    refs.push(ref);
  }
  return refs;
});
