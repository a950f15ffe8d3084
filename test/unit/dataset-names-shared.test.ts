/**
 * One dataset name reported by several test groups (dayjs runs one test file under several
 * time-zone groups) is judged on all of them: it passes only if every group that reports it
 * passes it, whatever the order of the suite's groups. Graded through `gradeCandidate`, the code
 * `bench run` and `bench regrade` grade with; rows and runs are generated here.
 */
import { describe, expect, it } from 'vitest';
import { gradeCandidate } from '../../src/bench/grade-candidate.ts';
import type { DatasetNames } from '../../src/core/dataset-names.ts';
import type { ConfigurationRun, TestStatus } from '../../src/core/run.schema.ts';
import { gradingReport, jestGroupsSuite, reportedRun } from '../helpers/grading-fixtures.ts';
import { seededRandom } from '../helpers/seeded-random.ts';

const REPO = 'acme/dayjs';

/** Raw jest ids as the parser writes them: `<group>::dayjs/<file> > <describe>::<title>`. */
type GroupTests = Record<string, Array<[string, TestStatus]>>;

function runOf(id: 'base' | 'full', byGroup: GroupTests, order: string[]): ConfigurationRun {
  return reportedRun(
    REPO,
    id,
    order.map((name) => ({
      name,
      tests: (byGroup[name] ?? []).map(([t, status]) => ({ id: `${name}::dayjs/${t}`, status })),
    })),
  );
}

function gradeWith(
  order: string[],
  runs: { base: GroupTests; full: GroupTests },
  lists: { failToPass: string[]; passToPass: string[] },
  names: DatasetNames = 'jest',
) {
  return gradeCandidate({
    report: gradingReport(REPO),
    runs: [runOf('base', runs.base, order), runOf('full', runs.full, order)],
    suite: jestGroupsSuite(REPO, order, names, 'dayjs'),
    lists,
    attempts: 1,
  }).report;
}

describe('a name several groups report', () => {
  const TOKYO_FAILS_PARSE: GroupTests = {
    utc: [
      ['test/parse.test.js > parse::keeps the offset', 'passed'],
      ['test/format.test.js > format::pads', 'passed'],
    ],
    tokyo: [
      ['test/parse.test.js > parse::keeps the offset', 'failed'],
      ['test/format.test.js > format::pads', 'passed'],
    ],
  };
  // A README-only no-op: the parse test fails under Tokyo time before and after it.
  const noOp = {
    base: TOKYO_FAILS_PARSE,
    // The same runs with the no-op applied.
    full: TOKYO_FAILS_PARSE,
  };
  const published = { failToPass: ['test/parse.test.js'], passToPass: ['test/format.test.js'] };

  it('a README-only no-op is unresolved in either group order', () => {
    for (const order of [
      ['utc', 'tokyo'],
      ['tokyo', 'utc'],
    ]) {
      const r = gradeWith(order, noOp, published);
      expect({ order, resolved: r.resolved }).toEqual({ order, resolved: false });
      expect(r.tests_status.FAIL_TO_PASS).toEqual({ success: [], failure: ['test/parse.test.js'] });
      expect(r.verdict.fixRate).toBe(0);
    }
  });

  it('fails where one group did not report the name in that run', () => {
    const full: GroupTests = {
      utc: [['test/parse.test.js > parse::keeps the offset', 'passed']],
      tokyo: [['test/format.test.js > format::pads', 'passed']],
    };
    const r = gradeWith(['utc', 'tokyo'], { base: noOp.base, full }, published);
    expect(r.resolved).toBe(false);
    const t = r.configurations
      .find((c) => c.id === 'full')!
      .tests.find((x) => x.id.endsWith('parse.test.js'));
    expect(t?.reason).toBe('not reported by test group "tokyo" in this run');
  });
});

const rng = seededRandom;

function shuffled<T>(xs: readonly T[], rand: () => number): T[] {
  const out = [...xs];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

describe('property: the order of groups never changes a grade', () => {
  const FILES = ['test/a.test.js', 'test/b.test.js', 'test/c.test.js'];
  const GROUPS = ['utc', 'tokyo', 'berlin'];
  const STATUSES: TestStatus[] = ['passed', 'passed', 'passed', 'failed', 'skipped'];

  /** Random results: each group runs each file's two tests, sometimes leaving one out. */
  function randomRuns(rand: () => number): { base: GroupTests; full: GroupTests } {
    const one = (): GroupTests =>
      Object.fromEntries(
        GROUPS.map((g) => [
          g,
          FILES.flatMap((f) =>
            ['first', 'second']
              .filter(() => rand() > 0.1)
              .map((t): [string, TestStatus] => [
                `${f} > d::${t}`,
                STATUSES[Math.floor(rand() * STATUSES.length)]!,
              ]),
          ),
        ]),
      );
    return { base: one(), full: one() };
  }

  /**
   * The rule itself: a file passes in full iff every group that reports it anywhere passes it
   * there (a group passes a file when none of its tests fails and one passes).
   */
  function oracle(runs: { base: GroupTests; full: GroupTests }, file: string): boolean {
    const reporters = GROUPS.filter((g) =>
      [runs.base, runs.full].some((r) => (r[g] ?? []).some(([t]) => t.startsWith(`${file} >`))),
    );
    return reporters.every((g) => {
      const mine = (runs.full[g] ?? []).filter(([t]) => t.startsWith(`${file} >`));
      return mine.some(([, s]) => s === 'passed') && mine.every(([, s]) => s === 'passed' || s === 'skipped');
    });
  }

  it('120 seeded cases × 3 group orders: identical grades, and the rule holds', () => {
    for (let seed = 1; seed <= 120; seed++) {
      const rand = rng(seed);
      const runs = randomRuns(rand);
      const lists = { failToPass: [FILES[0]!], passToPass: [FILES[1]!, FILES[2]!] };
      const views = [GROUPS, shuffled(GROUPS, rand), shuffled(GROUPS, rand)].map((order) => {
        const r = gradeWith(order, runs, lists);
        const full = r.configurations.find((c) => c.id === 'full')!;
        return {
          resolved: r.resolved,
          fixRate: r.verdict.fixRate,
          tests_status: r.tests_status,
          outcomes: r.configurations.map((c) => [c.id, c.outcome, c.f2p, c.p2p]),
          reasons: full.tests.map((t) => [t.id.split('::')[1], t.status, t.reason ?? '']).sort(),
        };
      });
      expect({ seed, view: views[1] }).toEqual({ seed, view: views[0] });
      expect({ seed, view: views[2] }).toEqual({ seed, view: views[0] });
      expect({ seed, resolved: views[0]!.resolved }).toEqual({
        seed,
        resolved: FILES.every((f) => oracle(runs, f)),
      });
    }
  });
});
