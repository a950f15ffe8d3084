/**
 * The naming forms datasets publish for jest: `jest-leaf` (Multi-SWE-bench's harness:
 * `file:<leaf title>`, no describe titles, beside the file-level entries) and `jest-file` (only
 * the file-level entries, as a dataset whose lists hold nothing finer). The published rows the
 * issue names (a github-readme-stats row in the leaf form, a dayjs row in the file form, run under
 * several time zones) cannot be fetched here; these fixtures are generated in their shapes:
 * `jest --json` written for invented tests, read by Tandem's parser, graded and derived as
 * `bench run` and `bench validate` do.
 */
import { describe, expect, it } from 'vitest';
import { gradeCandidate } from '../../src/bench/grade-candidate.ts';
import { publishedLists } from '../../src/bench/validated-row.ts';
import { deriveLists } from '../../src/core/bench-derive-lists.ts';
import {
  type DatasetNames,
  datasetNamesOf,
  mapRunsToDatasetNames,
  type NamedGroup,
} from '../../src/core/dataset-names.ts';
import type { ConfigurationRun } from '../../src/core/run.schema.ts';
import { parseResults } from '../../src/engine/results/parsers/index.ts';
import { gradingReport, jestGroupsSuite, reportedRun } from '../helpers/grading-fixtures.ts';
import { type JestTest, jestJson } from '../support/runner-output.ts';

describe('the forms, one test each', () => {
  const id = 'unit::stats/tests/card.test.js > card > options::hides the title';
  it('jest-leaf: `tests/card.test.js:hides the title` and the file entry', () => {
    expect(datasetNamesOf('jest-leaf', id, 'acme/stats')).toEqual({
      name: 'tests/card.test.js:hides the title',
      file: 'tests/card.test.js',
    });
  });
  it('jest-file: only `tests/card.test.js`', () => {
    expect(datasetNamesOf('jest-file', id, 'acme/stats')).toEqual({ file: 'tests/card.test.js' });
  });
  it('jest (unchanged): the describe titles in the name', () => {
    expect(datasetNamesOf('jest', id, 'acme/stats').name).toBe(
      'tests/card.test.js:card options hides the title',
    );
  });
});

type Side = 'base' | 'gold';
/**
 * One configuration's run (`base`, or `full`: the candidate applied) with each group's
 * `jest --json`, read by the parser the engine uses.
 */
function run(
  repo: string,
  id: 'base' | 'full',
  attempt: number,
  byGroup: Record<string, JestTest[]>,
): ConfigurationRun {
  return reportedRun(
    repo,
    id,
    Object.entries(byGroup).map(([name, tests]) => ({
      name,
      tests: parseResults('jest-json', jestJson(tests), name),
    })),
    attempt,
  );
}

describe('a row published in the leaf form (github-readme-stats-2491 shape)', () => {
  const REPO = 'acme/stats';
  const tests = (side: Side): JestTest[] => [
    {
      file: 'stats/tests/card.test.js',
      describes: ['card', 'options'],
      title: 'hides the title',
      status: side === 'gold' ? 'passed' : 'failed',
    },
    { file: 'stats/tests/card.test.js', describes: ['card'], title: 'renders', status: 'passed' },
    { file: 'stats/tests/api.test.js', describes: ['api', 'GET'], title: 'responds', status: 'passed' },
  ];
  const published = {
    failToPass: ['tests/card.test.js:hides the title', 'tests/card.test.js'],
    passToPass: ['tests/card.test.js:renders', 'tests/api.test.js:responds', 'tests/api.test.js'],
  };
  const gradeAs = (form: DatasetNames, side: Side) =>
    gradeCandidate({
      report: gradingReport(REPO),
      runs: [run(REPO, 'base', 0, { unit: tests('base') }), run(REPO, 'full', 0, { unit: tests(side) })],
      suite: jestGroupsSuite(REPO, ['unit'], form),
      lists: published,
      attempts: 1,
    });

  it('the gold patch resolves against the published lists with jest-leaf', () => {
    const g = gradeAs('jest-leaf', 'gold');
    expect(g.report.resolved).toBe(true);
    expect(g.namesWarning).toBeUndefined();
    expect(g.report.tests_status.FAIL_TO_PASS.success).toEqual(published.failToPass);
  });

  it('a no-op does not; and with the describe-title form the names are never reported', () => {
    expect(gradeAs('jest-leaf', 'base').report.resolved).toBe(false);
    const full = gradeAs('jest', 'gold');
    expect(full.report.resolved).toBe(false);
    expect(full.namesWarning).toMatch(/^3 of 5 listed test\(s\) were never reported/);
  });
});

describe('a row published as file entries only, run under several time zones (dayjs-1953 shape)', () => {
  const REPO = 'acme/dayjs';
  const ZONES = ['utc', 'tokyo', 'newyork'];
  const groups: NamedGroup[] = ZONES.map((name) => ({ name, repo: REPO, dataset_names: 'jest-file' }));
  /** The fix is to UTC offsets west of Greenwich: on base only the New York group fails it. */
  const tests = (side: Side, zone: string): JestTest[] => [
    {
      file: 'dayjs/test/plugin/utc.test.js',
      describes: ['utc'],
      title: 'keeps a negative offset',
      status: side === 'base' && zone === 'newyork' ? 'failed' : 'passed',
    },
    { file: 'dayjs/test/plugin/utc.test.js', describes: ['utc'], title: 'parses', status: 'passed' },
    { file: 'dayjs/test/parse.test.js', describes: ['parse'], title: [2010, 1, 14], status: 'passed' },
    { file: 'dayjs/test/display.test.js', describes: [], title: 'formats', status: 'passed' },
  ];
  /** `side`: the code the configuration holds (a no-op candidate leaves base's). */
  const runs = (id: 'base' | 'full', side: Side, attempt = 0) =>
    run(REPO, id, attempt, Object.fromEntries(ZONES.map((z) => [z, tests(side, z)])));
  const published = {
    failToPass: ['test/plugin/utc.test.js'],
    passToPass: ['test/display.test.js', 'test/parse.test.js'],
  };

  it('bench validate derives exactly the published lists', () => {
    const mapped = mapRunsToDatasetNames(
      [runs('base', 'base'), runs('full', 'gold', 0), runs('full', 'gold', 1)],
      groups,
    );
    const lists = publishedLists(deriveLists(mapped), groups);
    expect({ f: lists.failToPass, p: lists.passToPass.slice().sort() }).toEqual({
      f: published.failToPass,
      p: published.passToPass,
    });
  });

  it('the gold patch resolves against them, the no-op does not', () => {
    const gradeOf = (side: Side) =>
      gradeCandidate({
        report: gradingReport(REPO),
        runs: [runs('base', 'base'), runs('full', side)],
        suite: jestGroupsSuite(REPO, ZONES, 'jest-file'),
        lists: published,
        attempts: 1,
      }).report.resolved;
    expect(gradeOf('gold')).toBe(true);
    expect(gradeOf('base')).toBe(false);
  });
});
