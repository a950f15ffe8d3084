/**
 * `bench validate`'s derived lists are sets and disjoint: a test file several groups run (one
 * per time zone) is written once, never in both FAIL_TO_PASS and PASS_TO_PASS, even when the
 * groups disagree on the base run. Runs are generated here; the lists go through the same
 * derivation and publishing `bench validate` writes them with.
 */
import { describe, expect, it } from 'vitest';
import { publishedLists } from '../../src/bench/validated-row.ts';
import { deriveLists } from '../../src/core/bench-derive-lists.ts';
import { mapRunsToDatasetNames, type NamedGroup } from '../../src/core/dataset-names.ts';
import type { ConfigurationRun, TestStatus } from '../../src/core/run.schema.ts';

const REPO = 'acme/dayjs';
const GROUPS: NamedGroup[] = ['utc', 'tokyo', 'berlin'].map((name) => ({
  name,
  repo: REPO,
  dataset_names: 'jest',
}));

/** One run: every group runs the same three files; `tokyoBase` marks the time-zone bug. */
function run(id: 'base' | 'full', attempt: number, tokyoBreaks: boolean): ConfigurationRun {
  const status = (group: string, file: string): TestStatus =>
    file === 'test/plugin/utc.test.js' && group === 'tokyo' && tokyoBreaks ? 'failed' : 'passed';
  return {
    id,
    applied: id === 'full' ? [REPO] : [],
    attempt,
    setup: [],
    groups: GROUPS.map((g) => ({
      name: g.name,
      repo: REPO,
      status: 'reported' as const,
      exitCode: 0,
      durationMs: 1,
      tests: ['test/parse.test.js', 'test/plugin/utc.test.js', 'test/format.test.js'].map((f) => ({
        id: `${g.name}::dayjs/${f} > suite::works`,
        status: status(g.name, f),
      })),
    })),
    cached: false,
    durationMs: 1,
  };
}

describe('derived lists', () => {
  it('hold each name once, and no name in both lists', () => {
    // The gold patch fixes the Tokyo failure; three gold runs, as `--runs 3`.
    const raw = [run('base', 0, true), run('full', 0, false), run('full', 1, false), run('full', 2, false)];
    const lists = publishedLists(deriveLists(mapRunsToDatasetNames(raw, GROUPS)), GROUPS);
    expect(lists.failToPass).toEqual(['test/plugin/utc.test.js', 'test/plugin/utc.test.js:suite works']);
    expect(lists.passToPass).toEqual([
      'test/format.test.js',
      'test/format.test.js:suite works',
      'test/parse.test.js',
      'test/parse.test.js:suite works',
    ]);
    const all = [...lists.failToPass, ...lists.passToPass];
    expect(new Set(all).size).toBe(all.length);
  });

  it('given lists with a repeated name, or one name in both, come out as disjoint sets', () => {
    const raw = [run('base', 0, true), run('full', 0, false)];
    const runs = mapRunsToDatasetNames(raw, GROUPS);
    const lists = publishedLists(
      deriveLists(runs, {
        failToPass: ['utc::test/plugin/utc.test.js', 'tokyo::test/plugin/utc.test.js'],
        passToPass: ['utc::test/parse.test.js', 'utc::test/parse.test.js', 'utc::test/plugin/utc.test.js'],
      }),
      GROUPS,
    );
    expect(lists.failToPass).toEqual(['test/plugin/utc.test.js']);
    expect(lists.passToPass).toEqual(['test/parse.test.js']);
  });
});
