/**
 * Landing a queue item's tested commits: producer first, all or nothing (issue 28).
 *
 * The interface, beyond a list of landings:
 * - `Landing.viaMergeQueue`: that member's branch requires GitHub's merge queue; it is handed to
 *   that queue (merge-queue-handoff.ts) instead of moving the branch (`precheckQueueItem` says which).
 * - `landTestedSet(gh, landings, opts?)`: `opts.itemId` names the item, whose temporary branches
 *   (`tandem/queue/<item>/<repo>`) are deleted afterwards and whose revert branches it names;
 *   `opts.mergeQueue` tunes the wait on GitHub's queue.
 * - `reverted[].how` also `'revert-commit'` (a revert commit fast-forwarded onto the branch where a
 *   forced reset is not allowed but a direct update is); `revert-pr` only where neither is.
 * - `refused.unreverted`: members that landed and could not be reverted (said, never hidden).
 *
 * Order: the landings are landed in the order given, which the caller makes producer first.
 * Before anything moves, every branch must still be at `expectedTip` (the commit the tested commit
 * was built on), or already at the tested commit, or moved forward to a commit between the two on
 * the tested commit's first-parent line; a branch elsewhere (or behind `expectedTip`: an item
 * ahead not landed yet) refuses the set with nothing landed. Each move is `PATCH …/git/refs` with
 * `force: false`, so GitHub itself refuses a branch that moved in between. On a refusal the
 * members already landed are reverted, last first (land-revert.ts). `windowMs` is the measured
 * half-landed window: from the first member landing until the last landed, or until the last
 * revert was made (or offered as a PR).
 */
import { branchTip, moveBranch } from './branch-refs.ts';
import { type LandedMember, revertLanded } from './land-revert.ts';
import { type HandoffOptions, handOffToMergeQueue } from './merge-queue-handoff.ts';
import type { GitHub } from './octokit.ts';
import { repoId } from './octokit.ts';
import { removeTestedBranch } from './tested-commits.ts';

export interface Landing {
  /** `owner/repo#n`. */
  pull: string;
  /** `owner/name`. */
  repo: string;
  baseBranch: string;
  /** The base tip the tested commit was built on (landing refuses if the branch moved elsewhere). */
  expectedTip: string;
  testedSha: string;
  /** The branch requires GitHub's merge queue: enqueue the PR there and check the landed tree. */
  viaMergeQueue?: boolean;
}

export interface Reverted {
  landing: Landing;
  how: 'reset' | 'revert-commit' | 'revert-pr';
  revertPull?: string;
}

/** Where a member stands after a landing GitHub stopped answering: read, never assumed. */
export type MemberStanding = 'landed' | 'not-landed' | 'unknown';

export type LandOutcome =
  | { kind: 'landed'; landed: Landing[]; windowMs: number }
  | {
      /** GitHub did not answer (network, 5xx, timeout): not a refusal; nothing was undone. */
      kind: 'interrupted';
      error: unknown;
      members: Array<{ landing: Landing; standing: MemberStanding }>;
    }
  | {
      kind: 'refused';
      at: Landing;
      reason: string;
      reverted: Reverted[];
      unreverted?: Array<{ landing: Landing; reason: string }>;
      windowMs: number;
    };

export interface LandOptions {
  itemId?: string;
  mergeQueue?: HandoffOptions;
}

/**
 * Whether the branch moved forward to a commit the tested commit already contains: `tip` is on the
 * tested commit's first-parent line above `expectedTip` (the item ahead landed after this one was
 * built on its base). A tip below `expectedTip` is refused: landing would carry in changes of an
 * item ahead that has not landed (its other repositories would be missing).
 */
async function movedForwardWithin(gh: GitHub, l: Landing, tip: string, depth = 50): Promise<boolean> {
  let at = l.testedSha;
  for (let i = 0; i < depth; i += 1) {
    const { data } = await gh.rest.git.getCommit({ ...repoId(l.repo), commit_sha: at });
    const parent = data.parents[0]?.sha;
    if (!parent || parent === l.expectedTip) return false;
    if (parent === tip) return true;
    at = parent;
  }
  return false;
}

/** Why `l` cannot land as tested (its branch moved elsewhere), or undefined. */
async function stale(gh: GitHub, l: Landing): Promise<string | undefined> {
  const tip = await branchTip(gh, l.repo, l.baseBranch);
  if (!tip) return `${l.repo} has no branch ${l.baseBranch}`;
  if (tip === l.expectedTip || tip === l.testedSha) return undefined;
  if (!l.viaMergeQueue && (await movedForwardWithin(gh, l, tip))) return undefined;
  return `${l.repo} ${l.baseBranch} moved to ${tip.slice(0, 7)} after ${l.pull} was tested on ${l.expectedTip.slice(0, 7)}`;
}

type Step = { ok: true; landedSha: string } | { ok: false; reason: string; landedSha?: string };

async function landOne(gh: GitHub, l: Landing, opts: LandOptions): Promise<Step> {
  if (l.viaMergeQueue) {
    const r = await handOffToMergeQueue(gh, l, opts.mergeQueue);
    if (r.landed === true) return { ok: true, landedSha: r.sha };
    return r.landed === 'untested'
      ? { ok: false, reason: r.reason, landedSha: r.sha }
      : { ok: false, reason: r.reason };
  }
  const moved = await moveBranch(gh, l.repo, l.baseBranch, l.testedSha, false);
  if (moved.moved) return { ok: true, landedSha: l.testedSha };
  // Already there (a landing retried after a lost answer) is landed, not refused.
  if ((await branchTip(gh, l.repo, l.baseBranch)) === l.testedSha)
    return { ok: true, landedSha: l.testedSha };
  return {
    ok: false,
    reason: `GitHub refused to move ${l.repo} ${l.baseBranch} to the tested commit: ${moved.reason}`,
  };
}

/**
 * Lands the set, or says why not. A request GitHub does not answer (thrown: network, 5xx,
 * timeout) ends it `interrupted`: that is no refusal, so nothing landed is undone (its undo could
 * fail the same way and would throw away a landing that is right); each member's branch is read
 * to say where it stands, and the caller lands the set again later — which is safe, as a member
 * already at its tested commit counts as landed.
 */
export async function landTestedSet(
  gh: GitHub,
  landings: Landing[],
  opts: LandOptions = {},
): Promise<LandOutcome> {
  const landed: Landing[] = [];
  let outcome: LandOutcome;
  try {
    outcome = await landAll(gh, landings, opts, landed);
  } catch (error) {
    return { kind: 'interrupted', error, members: await standings(gh, landings, landed) };
  }
  if (opts.itemId)
    for (const l of landings) await removeTestedBranch(gh, l.repo, opts.itemId).catch(() => {});
  return outcome;
}

/** Each member as its branch shows it now; a branch that cannot be read is `unknown`. */
async function standings(gh: GitHub, landings: readonly Landing[], landed: readonly Landing[]) {
  return Promise.all(
    landings.map(async (landing) => {
      if (landed.includes(landing)) return { landing, standing: 'landed' as const };
      const tip = await branchTip(gh, landing.repo, landing.baseBranch).catch(() => undefined);
      const standing: MemberStanding =
        tip === landing.testedSha ? 'landed' : tip === landing.expectedTip ? 'not-landed' : 'unknown';
      return { landing, standing };
    }),
  );
}

/** Lands in order; `done` collects the members landed (for a caller whose GitHub stopped answering). */
async function landAll(
  gh: GitHub,
  landings: Landing[],
  opts: LandOptions,
  done: Landing[],
): Promise<LandOutcome> {
  for (const l of landings) {
    const why = await stale(gh, l);
    if (why) return { kind: 'refused', at: l, reason: why, reverted: [], windowMs: 0 };
  }
  const landed: Array<{ landing: Landing; member: LandedMember }> = [];
  let first: number | undefined;
  let outcome: LandOutcome | undefined;
  for (const l of landings) {
    const step = await landOne(gh, l, opts);
    const member = (sha: string): LandedMember => ({
      pull: l.pull,
      repo: l.repo,
      baseBranch: l.baseBranch,
      previousTip: l.expectedTip,
      landedSha: sha,
      viaMergeQueue: l.viaMergeQueue ?? false,
    });
    if (step.landedSha !== undefined) {
      first ??= performance.now();
      landed.push({ landing: l, member: member(step.landedSha) });
      done.push(l);
    }
    if (!step.ok) {
      outcome = await undo(gh, l, step.reason, landed, opts.itemId ?? 'set', first);
      break;
    }
  }
  return (
    outcome ?? {
      kind: 'landed',
      landed: landings,
      windowMs: first === undefined ? 0 : performance.now() - first,
    }
  );
}

async function undo(
  gh: GitHub,
  at: Landing,
  reason: string,
  landed: Array<{ landing: Landing; member: LandedMember }>,
  itemId: string,
  first: number | undefined,
): Promise<LandOutcome> {
  const reverted: Reverted[] = [];
  const unreverted: Array<{ landing: Landing; reason: string }> = [];
  for (const { landing, member } of [...landed].reverse()) {
    const r = await revertLanded(gh, member, itemId);
    if (r.how === 'failed') unreverted.push({ landing, reason: r.reason });
    else if (r.how === 'revert-pr') reverted.push({ landing, how: r.how, revertPull: r.revertPull });
    else reverted.push({ landing, how: r.how });
  }
  return {
    kind: 'refused',
    at,
    reason,
    reverted,
    ...(unreverted.length > 0 ? { unreverted } : {}),
    windowMs: first === undefined ? 0 : performance.now() - first,
  };
}
