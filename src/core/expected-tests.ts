/**
 * Which tests a configuration is judged on: the suite's F2P/P2P lists, else the all-base run
 * decides (failing → F2P, passing → P2P, skipped → ignored). Pure; grading and the engine's
 * progress events both take their lists from here.
 *
 * The all-base run names candidates: it is the one configuration that runs no PR code. An id
 * seen only in runs with a target at head is the PR's own doing (a test it added, or one its code
 * made the runner print, with any name it likes): it never becomes F2P or P2P unless the suite
 * lists it, so it can neither raise the fix rate nor reach a published list; it is only counted.
 * One exception: a test the all-base run *could not* have reported (its group ran no test there,
 * or its package, file or module did not build, load or collect: core/unrunnable-tests.ts) and
 * the full configuration's first run reports is F2P. The base failed it by failing to build it;
 * leaving it out would grade a change whose tests never compiled at base as passing 0/0.
 */
import type { Grade } from './grade.schema.ts';
import { allSeenTests, observe } from './observed-tests.ts';
import type { ConfigurationRun } from './run.schema.ts';
import { couldNotRun } from './unrunnable-tests.ts';

export interface TestLists {
  f2p: string[];
  p2p: string[];
  ignored: string[];
  source: Grade['tests']['source'];
  /** How many ids only runs of PR code reported (neither the all-base run nor the suite has them). */
  seenOnlyWithPr: number;
}

export interface ListSources {
  failToPass?: string[] | undefined;
  passToPass?: string[] | undefined;
  /** Every run: the ones with a target at head are only counted (`seenOnlyWithPr`). */
  runs: readonly ConfigurationRun[];
}

/**
 * Tests the full configuration's first run reports that the all-base run reported nowhere
 * because it could not run them (their group or their package/file/module broke at base).
 */
export function unbuiltAtBase(baseRun: ConfigurationRun, fullRun: ConfigurationRun | undefined): string[] {
  if (!fullRun || fullRun.infraError) return [];
  const atBase = new Set(allSeenTests([baseRun]));
  const unrunnable = couldNotRun(baseRun);
  return allSeenTests([fullRun]).filter((id) => !atBase.has(id) && unrunnable(id));
}

/** Both lists from the suite: no run is needed to know what is expected. */
export function suiteLists(failToPass?: string[], passToPass?: string[]): TestLists | undefined {
  if (!failToPass || !passToPass) return undefined;
  return {
    f2p: failToPass,
    p2p: passToPass,
    ignored: [],
    source: { failToPass: 'suite', passToPass: 'suite' },
    seenOnlyWithPr: 0,
  };
}

/** Ids runs with a target at head reported that neither the all-base run nor the lists have. */
function countSeenOnlyWithPr(
  input: ListSources,
  baseRun: ConfigurationRun | undefined,
  judged: readonly string[] = [],
): number {
  const known = new Set([...(input.failToPass ?? []), ...(input.passToPass ?? []), ...judged]);
  for (const id of baseRun ? allSeenTests([baseRun]) : []) known.add(id);
  const withPr = allSeenTests(input.runs.filter((r) => r.applied.length > 0));
  return withPr.filter((id) => !known.has(id)).length;
}

/**
 * The lists, or why they cannot be known (the all-base configuration has no result). `fullRun`:
 * the full configuration's first run, when there is one (see `unbuiltAtBase`).
 */
export function classifyTests(
  input: ListSources,
  baseRun: ConfigurationRun | undefined,
  fullRun?: ConfigurationRun,
): TestLists | string {
  const { failToPass, passToPass } = input;
  const fromSuite = suiteLists(failToPass, passToPass);
  if (fromSuite) return { ...fromSuite, seenOnlyWithPr: countSeenOnlyWithPr(input, baseRun) };
  if (!baseRun || baseRun.infraError) {
    return 'the all-base configuration has no result, so tests cannot be classified as F2P or P2P';
  }
  const listed = new Set([...(failToPass ?? []), ...(passToPass ?? [])]);
  const candidates = allSeenTests([baseRun]).filter((id) => !listed.has(id));
  const onBase = observe(baseRun, candidates);
  const f2p =
    failToPass ?? candidates.filter((id) => !['passed', 'skipped'].includes(onBase.get(id)!.status));
  const p2p = passToPass ?? candidates.filter((id) => onBase.get(id)!.status === 'passed');
  const ignored = candidates.filter((id) => onBase.get(id)!.status === 'skipped');
  const unbuilt = failToPass ? [] : unbuiltAtBase(baseRun, fullRun).filter((id) => !listed.has(id));
  return {
    f2p: [...f2p, ...unbuilt],
    p2p,
    ignored,
    source: { failToPass: failToPass ? 'suite' : 'base-run', passToPass: passToPass ? 'suite' : 'base-run' },
    seenOnlyWithPr: countSeenOnlyWithPr(input, baseRun, unbuilt),
  };
}
