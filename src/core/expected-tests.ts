/**
 * Which tests a configuration is judged on: the suite's F2P/P2P lists, else the all-base run
 * decides (failing → F2P, passing → P2P, skipped → ignored). Pure; grading and the engine's
 * progress events both take their lists from here.
 */
import type { Grade } from './grade.schema.ts';
import { allSeenTests, observe } from './observed-tests.ts';
import type { ConfigurationRun } from './run.schema.ts';

export interface TestLists {
  f2p: string[];
  p2p: string[];
  ignored: string[];
  source: Grade['tests']['source'];
}

export interface ListSources {
  failToPass?: string[] | undefined;
  passToPass?: string[] | undefined;
  /** The runs whose reported ids are candidates when a list is missing. */
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
  };
}

/** The lists, or why they cannot be known (the all-base configuration has no result). */
export function classifyTests(input: ListSources, baseRun: ConfigurationRun | undefined): TestLists | string {
  const { failToPass, passToPass } = input;
  const fromSuite = suiteLists(failToPass, passToPass);
  if (fromSuite) return fromSuite;
  if (!baseRun || baseRun.infraError) {
    return 'the all-base configuration has no result, so tests cannot be classified as F2P or P2P';
  }
  const listed = new Set([...(failToPass ?? []), ...(passToPass ?? [])]);
  const candidates = allSeenTests(input.runs).filter((id) => !listed.has(id));
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
  };
}
