/**
 * Which tests a configuration is judged on: the suite's F2P/P2P lists, else the all-base run
 * decides (failing → F2P, passing → P2P, skipped → ignored). Pure; grading and the engine's
 * progress events both take their lists from here.
 *
 * Only the all-base run names candidates: it is the one configuration that runs no PR code. An id
 * seen only in runs with a target at head is the PR's own doing (a test it added, or one its code
 * made the runner print, with any name it likes): it never becomes F2P or P2P unless the suite
 * lists it, so it can neither raise the fix rate nor reach a published list; it is only counted.
 */
import type { Grade } from './grade.schema.ts';
import { allSeenTests, observe } from './observed-tests.ts';
import type { ConfigurationRun } from './run.schema.ts';

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

/** Ids runs with a target at head reported that neither the all-base run nor the suite's lists have. */
function countSeenOnlyWithPr(input: ListSources, baseRun: ConfigurationRun | undefined): number {
  const known = new Set([...(input.failToPass ?? []), ...(input.passToPass ?? [])]);
  for (const id of baseRun ? allSeenTests([baseRun]) : []) known.add(id);
  const withPr = allSeenTests(input.runs.filter((r) => r.applied.length > 0));
  return withPr.filter((id) => !known.has(id)).length;
}

/** The lists, or why they cannot be known (the all-base configuration has no result). */
export function classifyTests(input: ListSources, baseRun: ConfigurationRun | undefined): TestLists | string {
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
  return {
    f2p,
    p2p,
    ignored,
    source: { failToPass: failToPass ? 'suite' : 'base-run', passToPass: passToPass ? 'suite' : 'base-run' },
    seenOnlyWithPr: countSeenOnlyWithPr(input, baseRun),
  };
}
