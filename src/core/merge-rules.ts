/**
 * What a person merging on GitHub could not bypass, as rules `/tandem merge` honours before it
 * merges a member: required approving reviews (by people with write access), code owners'
 * approval, verified signatures, and a required merge queue. Read from the branch's rulesets
 * (`GET …/rules/branches/{branch}`) and branch protection where the App may read it; judged here
 * on what GitHub says about the PR (its reviews, its commits, its changed files and the base
 * branch's CODEOWNERS). A branch that merges through its merge queue is never merged by API
 * (GitHub refuses it): the member is handed to the queue instead. Pure.
 */
import { z } from 'zod';

/** One rule of `GET …/rules/branches/{branch}` (GitHub's shape; unknown rule types are ignored). */
export const branchRuleSchema = z
  .object({
    type: z.string(),
    parameters: z
      .object({
        required_approving_review_count: z.number().int().nonnegative().optional(),
        require_code_owner_review: z.boolean().optional(),
      })
      .loose()
      .optional(),
  })
  .loose();
export type BranchRule = z.infer<typeof branchRuleSchema>;

/** Branch protection's parts that matter here (`GET …/branches/{branch}/protection`). */
export const protectionSchema = z
  .object({
    required_pull_request_reviews: z
      .object({
        required_approving_review_count: z.number().int().nonnegative().optional(),
        require_code_owner_reviews: z.boolean().optional(),
      })
      .loose()
      .optional(),
    required_signatures: z.object({ enabled: z.boolean() }).loose().optional(),
  })
  .loose();
export type Protection = z.infer<typeof protectionSchema>;

export interface MergeRules {
  approvals: number;
  codeOwners: boolean;
  signatures: boolean;
  mergeQueue: boolean;
}

/** The strictest of every ruleset rule and branch protection on the branch. */
export function mergeRulesOf(rules: readonly BranchRule[], protection?: Protection): MergeRules {
  const reviews = protection?.required_pull_request_reviews;
  const out: MergeRules = {
    approvals: reviews?.required_approving_review_count ?? (reviews ? 1 : 0),
    codeOwners: reviews?.require_code_owner_reviews ?? false,
    signatures: protection?.required_signatures?.enabled ?? false,
    mergeQueue: false,
  };
  for (const r of rules) {
    if (r.type === 'pull_request') {
      out.approvals = Math.max(out.approvals, r.parameters?.required_approving_review_count ?? 0);
      out.codeOwners ||= r.parameters?.require_code_owner_review ?? false;
    } else if (r.type === 'required_signatures') out.signatures = true;
    else if (r.type === 'merge_queue') out.mergeQueue = true;
  }
  return out;
}

/** What GitHub says about a member, as far as its rules need it. */
export interface MemberFacts {
  /** Users whose latest review approves the PR and who have write access to its repository. */
  approvers: string[];
  /** The code owners of each changed file that has any (CODEOWNERS on the base branch). */
  ownersByFile: string[][];
  /** Commits of the PR whose signature GitHub does not verify. */
  unsignedCommits: string[];
}

/** A member the rules keep from an API merge: refused, or handed to its merge queue. */
export type RulesVerdict = { kind: 'refused' | 'queue'; reason: string } | undefined;

/** The clause the merge comment shows for a member whose branch requires the merge queue. */
export function mergeQueueReason(key: string): string {
  return `this repository merges through its merge queue: add ${key} to its merge queue on GitHub (Tandem checks its merge group); once it has merged, the rest of the linked change is evaluated again and /tandem merge merges the others`;
}

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;
const lower = (s: string) => s.toLowerCase();

/** Whether `user` is one of `owners` (`@user`; `@org/team` owners cannot be confirmed, so never match). */
function ownedBy(owners: readonly string[], user: string): boolean {
  return owners.some((o) => !o.includes('/') && lower(o.replace(/^@/, '')) === lower(user));
}

export function judgeMergeRules(key: string, rules: MergeRules, facts: MemberFacts): RulesVerdict {
  if (rules.mergeQueue) return { kind: 'queue', reason: mergeQueueReason(key) };
  if (facts.approvers.length < rules.approvals)
    return {
      kind: 'refused',
      reason: `its branch requires ${plural(rules.approvals, 'approving review')} by people with write access; it has ${facts.approvers.length}`,
    };
  if (rules.codeOwners) {
    const waiting = facts.ownersByFile.find((owners) => !facts.approvers.some((a) => ownedBy(owners, a)));
    if (waiting)
      return { kind: 'refused', reason: `it waits on a code owner's approval (${waiting.join(' ')})` };
  }
  if (rules.signatures && facts.unsignedCommits.length > 0)
    return {
      kind: 'refused',
      reason: `its branch requires verified signatures; ${plural(facts.unsignedCommits.length, 'commit')} (${facts.unsignedCommits.map((s) => s.slice(0, 7)).join(', ')}) ${facts.unsignedCommits.length === 1 ? 'is' : 'are'} not verified`,
    };
  return undefined;
}

/**
 * CODEOWNERS as GitHub reads it: the last line whose pattern matches a path names its owners.
 * Patterns: `*`, `*.ext`, `dir/`, `/dir/`, `/file`, `**` and `*` inside paths.
 */
export function codeOwnersOf(codeowners: string, path: string): string[] {
  let owners: string[] = [];
  for (const raw of codeowners.split('\n')) {
    const line = raw.replace(/(^|\s)#.*$/, '').trim();
    if (!line) continue;
    const [pattern, ...who] = line.split(/\s+/);
    if (pattern && patternMatches(pattern, path)) owners = who;
  }
  return owners;
}

function patternMatches(pattern: string, path: string): boolean {
  const anchored = pattern.startsWith('/') || pattern.slice(0, -1).includes('/');
  let p = pattern.replace(/^\//, '');
  if (p.endsWith('/')) p += '**';
  const re = p
    .split('**')
    .map((part) =>
      part
        .split('*')
        .map((s) => s.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
        .join('[^/]*'),
    )
    .join('.*');
  const body = `${re}(?:/.*)?`;
  return new RegExp(anchored ? `^${body}$` : `(?:^|/)${body}$`).test(path);
}
