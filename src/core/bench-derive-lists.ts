/**
 * What `tandem bench validate` concludes from an instance's gold matrix (test patch in every
 * configuration, the gold configuration run several times):
 * - flaky: a test whose status differs across the gold runs; dropped from the lists;
 * - F2P / P2P when the instance has none: fails on base and passes in every gold run → F2P,
 *   passes in both → P2P (a test failing in gold is neither);
 * - gold unresolved: a listed test that does not pass in every gold run;
 * - the configurations other than gold that already pass every listed test (not jointly necessary);
 * - every test left out of the lists and why (`dropped`), so a validation can be audited: flaky
 *   across the gold runs, failing on base and in gold, failing in gold, timed out in every gold
 *   run (its group hit the suite's limit), skipped in gold.
 */
import { allSeenTests, observe } from './observed-tests.ts';
import type { ConfigurationRun } from './run.schema.ts';
import { groupOfTestId, isSyntheticFailure } from './test-id.ts';

export type DropReason =
  | 'flaky'
  | 'timed-out'
  | 'fails-on-base-and-gold'
  | 'fails-in-gold'
  | 'skipped-in-gold';

export interface DroppedTest {
  id: string;
  reason: DropReason;
  /** Status per gold run (then the base run's, when it ran). */
  statuses: string[];
}

export interface ListDerivation {
  failToPass: string[];
  passToPass: string[];
  derived: boolean;
  flaky: Array<{ id: string; statuses: string[] }>;
  /** Listed tests that do not pass in some gold run. */
  failingInGold: string[];
  /** Of those, the ones whose group timed out in every gold run (the same way each time). */
  timedOutInGold: string[];
  /** Non-gold configurations passing every listed test (ids, base first). */
  passingOthers: Array<{ id: string; applied: string[] }>;
  dropped: DroppedTest[];
}

export function deriveLists(
  runs: readonly ConfigurationRun[],
  given: { failToPass?: string[]; passToPass?: string[] } = {},
): ListDerivation {
  const gold = runs.filter((r) => r.id === 'full');
  const base = runs.find((r) => r.id === 'base' && r.attempt === 0);
  const ids = allSeenTests([...gold, ...(base ? [base] : [])]);
  const goldSeen = gold.map((r) => observe(r, ids));
  const flaky = ids
    .map((id) => ({ id, statuses: goldSeen.map((s) => s.get(id)?.status ?? 'missing') }))
    .filter((f) => new Set(f.statuses).size > 1);
  const isFlaky = new Set(flaky.map((f) => f.id));
  const passesGold = (id: string) => goldSeen.every((s) => s.get(id)?.status === 'passed');
  const derived = given.failToPass === undefined || given.passToPass === undefined;
  let failToPass: string[];
  let passToPass: string[];
  if (derived) {
    const onBase = base ? observe(base, ids) : new Map();
    const stable = ids.filter((id) => !isFlaky.has(id) && passesGold(id));
    failToPass = stable.filter((id) => onBase.get(id)?.status !== 'passed');
    passToPass = stable.filter((id) => onBase.get(id)?.status === 'passed');
  } else {
    failToPass = given.failToPass!.filter((id) => !isFlaky.has(id));
    passToPass = given.passToPass!.filter((id) => !isFlaky.has(id));
  }
  const listed = [...failToPass, ...passToPass];
  const failingInGold = listed.filter((id) => !passesGold(id));
  const kept = new Set(listed);
  const dropped: DroppedTest[] = [];
  const timedOut = (r: ConfigurationRun, id: string) =>
    r.groups.some((g) => g.name === groupOfTestId(id) && g.status === 'timeout');
  for (const id of derived ? ids : [...(given.failToPass ?? []), ...(given.passToPass ?? [])]) {
    if (kept.has(id) || isSyntheticFailure(id)) continue;
    const seen = gold.map((r) => observe(r, [id]).get(id)!.status);
    const onBase = base ? observe(base, [id]).get(id)!.status : undefined;
    const statuses = [...seen, ...(onBase ? [onBase] : [])];
    const reason: DropReason = isFlaky.has(id)
      ? 'flaky'
      : gold.length > 0 && gold.every((r) => timedOut(r, id))
        ? 'timed-out'
        : seen.every((st) => st === 'skipped')
          ? 'skipped-in-gold'
          : onBase !== 'passed'
            ? 'fails-on-base-and-gold'
            : 'fails-in-gold';
    dropped.push({ id, reason, statuses });
  }
  const passingOthers = runs
    .filter((r) => r.id !== 'full' && r.attempt === 0 && !r.infraError)
    .filter((r) => {
      const seen = observe(r, listed);
      return listed.length > 0 && listed.every((id) => seen.get(id)?.status === 'passed');
    })
    .map((r) => ({ id: r.id, applied: r.applied }));
  const timedOutInGold = failingInGold.filter((id) => gold.length > 0 && gold.every((r) => timedOut(r, id)));
  return { failToPass, passToPass, derived, flaky, failingInGold, timedOutInGold, passingOthers, dropped };
}
