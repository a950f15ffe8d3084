/**
 * `/tandem merge` honours what a person merging on GitHub could not bypass: before a member is
 * merged, its base branch's rules (rulesets and branch protection: required reviews, code
 * owners, signatures, a required merge queue) are read and judged (core/merge-rules.ts). A member
 * whose branch merges through its merge queue is never merged by API; the reason says to queue it.
 */
import type { EvaluatedMember } from '../../core/merge-command-plan.ts';
import { judgeMergeRules } from '../../core/merge-rules.ts';
import { parsePullKey, repoOfPullKey } from '../../core/pull-ref.ts';
import type { GitHubPort } from '../port/github-port.ts';

/** Why `m`'s branch rules keep it from an API merge into `baseRef`, or undefined when they allow it. */
export async function rulesRefusal(
  gh: GitHubPort,
  m: EvaluatedMember,
  baseRef: string,
): Promise<string | undefined> {
  try {
    const rules = await gh.mergeRules(repoOfPullKey(m.key), baseRef);
    const facts = await gh.memberFacts(parsePullKey(m.key), baseRef, rules);
    return judgeMergeRules(m.key, rules, facts)?.reason;
  } catch (e) {
    // Rules that cannot be read are not rules met: refuse rather than bypass them.
    return `its branch rules could not be read (${(e as Error).message})`;
  }
}
