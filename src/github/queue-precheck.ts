/**
 * What the App checks before a linked set enters the queue (issue 28), per member:
 * - the branch rules the App may not bypass — required approving reviews, code owners' approval,
 *   verified signatures — judged as `/tandem merge` judges them (core/merge-rules.ts);
 * - whether the App may move the base branch itself: a ruleset `pull_request` (or `update`) rule
 *   refuses direct ref updates unless the App is a bypass actor (`current_user_can_bypass:
 *   always` on the ruleset); without that the member is refused here, with the reason, rather
 *   than refused midway through landing;
 * - whether the branch requires GitHub's merge queue: then the member is landed by handing it to
 *   that queue (`viaMergeQueue`, merge-queue-handoff.ts), as docs/app.md explains.
 * Rules that cannot be read are not rules met: the member is refused, saying so.
 */
import { z } from 'zod';
import { judgeMergeRules } from '../core/merge-rules.ts';
import { parsePullKey, repoOfPullKey } from '../core/pull-ref.ts';
import { readMemberFacts, readMergeRules } from './merge-rules-reads.ts';
import { type GitHub, httpStatus, repoId } from './octokit.ts';

export interface PrecheckMember {
  /** `owner/repo#n`. */
  pull: string;
  baseBranch: string;
}

export type MemberPrecheck =
  | { pull: string; ok: true; viaMergeQueue: boolean }
  | { pull: string; ok: false; reason: string };

const rulesSchema = z.array(
  z
    .object({ type: z.string(), ruleset_id: z.number().optional(), ruleset_source: z.string().optional() })
    .loose(),
);
const rulesetSchema = z.object({ name: z.string(), current_user_can_bypass: z.string().optional() }).loose();

/** The rules that keep the App from updating `branch` directly, by the ruleset that sets them. */
async function refUpdateBlocker(gh: GitHub, repo: string, branch: string): Promise<string | undefined> {
  const rules = await gh.rest.repos
    .getBranchRules({ ...repoId(repo), branch, per_page: 100 })
    .then(({ data }) => rulesSchema.parse(data))
    .catch((e) => {
      if (httpStatus(e) === 404) return [];
      throw e;
    });
  const blocking = rules.filter((r) => r.type === 'pull_request' || r.type === 'update');
  for (const id of new Set(blocking.map((r) => r.ruleset_id))) {
    if (id === undefined) return 'its branch takes changes only through pull requests';
    const { data } = await gh.rest.repos.getRepoRuleset({ ...repoId(repo), ruleset_id: id });
    const ruleset = rulesetSchema.parse(data);
    if (ruleset.current_user_can_bypass !== 'always')
      return `its branch takes changes only through pull requests (ruleset "${ruleset.name}") and the Tandem App is not one of its bypass actors, so the queue cannot move ${branch} to the tested commit: add the App to the ruleset's bypass list (always)`;
  }
  return undefined;
}

async function precheckMember(gh: GitHub, m: PrecheckMember): Promise<MemberPrecheck> {
  const repo = repoOfPullKey(m.pull);
  try {
    const rules = await readMergeRules(gh, repoId(repo), m.baseBranch);
    const facts = await readMemberFacts(gh, parsePullKey(m.pull), m.baseBranch, rules);
    // GitHub's merge queue enforces reviews and signatures too: judge them whatever the landing route.
    const verdict = judgeMergeRules(m.pull, { ...rules, mergeQueue: false }, facts);
    if (verdict) return { pull: m.pull, ok: false, reason: verdict.reason };
    if (rules.mergeQueue) return { pull: m.pull, ok: true, viaMergeQueue: true };
    const blocked = await refUpdateBlocker(gh, repo, m.baseBranch);
    if (blocked) return { pull: m.pull, ok: false, reason: blocked };
    return { pull: m.pull, ok: true, viaMergeQueue: false };
  } catch (e) {
    return {
      pull: m.pull,
      ok: false,
      reason: `its branch rules could not be read (${(e as Error).message})`,
    };
  }
}

/** Every member's verdict; the item may enter the queue only when all are `ok`. */
export async function precheckQueueItem(gh: GitHub, members: PrecheckMember[]): Promise<MemberPrecheck[]> {
  return Promise.all(members.map((m) => precheckMember(gh, m)));
}
