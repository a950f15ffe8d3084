/**
 * What GitHub checks when a branch is moved directly (`PATCH/POST …/git/refs`, `POST …/merges`):
 * the branch's rules as tests set them (branch-rules.ts) — a ruleset `pull_request` rule refuses
 * direct updates unless the App is a bypass actor, a `merge_queue` rule refuses them always, a
 * `non_fast_forward` rule refuses a forced update, branch protection with required reviews refuses
 * them unless bypassed — worded as GitHub words its 422s. Also the test hook that refuses the Nth
 * branch update (a mid-landing refusal), and GitHub's rule that a PR whose head becomes reachable
 * from its base branch is merged.
 *
 * Seeding (in-process): `refuseRefUpdate(state, {nth, repo?, branch?, status?, message?})`;
 * `beforeForcedUpdate(state, fn)` runs `fn` once, when the next forced branch update arrives
 * (`PATCH …/git/refs` with `force: true`, or GraphQL `updateRefs`), before anything is checked:
 * a push racing a reset.
 */
import { git } from '../../../src/engine/git/git.ts';
import { requirementsOf } from './branch-rules.ts';
import type { Caller } from './http.ts';
import { markPullMerged, repoKey, type StandInState } from './state.ts';

export interface RefRefusalRule {
  /** Refuse the nth matching `PATCH …/git/refs/heads/…` from now on (1 = the next). */
  nth: number;
  /** `owner/name`; any repository when absent. */
  repo?: string;
  branch?: string;
  status?: number;
  message?: string;
}

const hooks = new WeakMap<StandInState, Array<RefRefusalRule & { seen: number }>>();

interface ForcedHook {
  repo: string;
  branch: string;
  fn: () => Promise<void>;
}
const forcedHooks = new WeakMap<StandInState, ForcedHook[]>();

/** `repo` is `owner/name`. */
export function beforeForcedUpdate(
  state: StandInState,
  at: { repo: string; branch: string },
  fn: () => Promise<void>,
): void {
  forcedHooks.set(state, [...(forcedHooks.get(state) ?? []), { ...at, fn }]);
}

/** Runs (once each) the hooks `beforeForcedUpdate` queued for this branch. */
export async function runForcedUpdateHooks(
  state: StandInState,
  owner: string,
  repo: string,
  branch: string,
): Promise<void> {
  const all = forcedHooks.get(state) ?? [];
  const due = all.filter((h) => h.repo.toLowerCase() === repoKey(owner, repo) && h.branch === branch);
  forcedHooks.set(
    state,
    all.filter((h) => !due.includes(h)),
  );
  for (const h of due) await h.fn();
}

/** Refuses the nth branch update matching the rule (counted per rule). */
export function refuseRefUpdate(state: StandInState, rule: RefRefusalRule): void {
  hooks.set(state, [...(hooks.get(state) ?? []), { ...rule, seen: 0 }]);
}

/** The injected refusal for this update, if a rule's count reaches it. */
export function injectedRefusal(
  state: StandInState,
  owner: string,
  repo: string,
  branch: string,
): { status: number; message: string } | undefined {
  let refusal: { status: number; message: string } | undefined;
  // Every matching rule counts this update, whichever refuses it.
  for (const rule of hooks.get(state) ?? []) {
    if (rule.repo && repoKey(owner, repo) !== rule.repo.toLowerCase()) continue;
    if (rule.branch && rule.branch !== branch) continue;
    rule.seen += 1;
    if (rule.seen === rule.nth)
      refusal ??= {
        status: rule.status ?? 422,
        message: rule.message ?? 'Repository rule violations found\n\nRefused by the test.\n\n',
      };
  }
  return refusal;
}

/** Why GitHub refuses this direct update of `branch`, as its 422 message says; undefined when allowed. */
export function ruleRefusal(
  state: StandInState,
  caller: Caller,
  owner: string,
  repo: string,
  branch: string,
  force: boolean,
): string | undefined {
  const merge = requirementsOf(state, owner, repo, branch).merge;
  if (!merge) return undefined;
  const bypass = merge.appBypass === true && caller.installationId !== undefined;
  const reviews = Boolean(merge.approvals || merge.codeOwners || merge.requirePullRequest);
  if (merge.via === 'protection')
    return reviews && !bypass ? `Protected branch update failed for refs/heads/${branch}.` : undefined;
  const violations = [
    ...(merge.mergeQueue ? ['Changes must be made through the merge queue'] : []),
    ...(reviews && !bypass ? ['Changes must be made through a pull request.'] : []),
    ...(force && merge.noForcePush && !bypass ? ['Cannot force-push to this branch'] : []),
  ];
  return violations.length === 0
    ? undefined
    : `Repository rule violations found\n\n${violations.join('\n\n')}\n\n`;
}

/** GitHub marks an open PR merged once its head is reachable from its base branch. */
export async function markReachablePulls(
  state: StandInState,
  dir: string,
  owner: string,
  repo: string,
  branch: string,
  tip: string,
): Promise<void> {
  const open = state.pulls.filter(
    (p) => repoKey(p.owner, p.repo) === repoKey(owner, repo) && p.baseRef === branch && p.state === 'open',
  );
  for (const p of open) {
    const r = await git(['merge-base', '--is-ancestor', p.headSha, tip], { cwd: dir, allowFailure: true });
    if (r.code !== 0) continue;
    markPullMerged(p, tip);
  }
}
