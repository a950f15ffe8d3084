/**
 * A Multi-SWE-bench row's N2P tests (`n2p_tests`: none before, the test patch adds them) are
 * neither FAIL_TO_PASS nor PASS_TO_PASS unless `--n2p-as-f2p` says so: a no-op patch, under
 * which the new tests pass and the fixed ones still fail, has a fix rate of 0. The row is
 * generated here in the published shape; the no-op's results go through the grader `bench run`
 * uses.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gradeCandidate, instanceLists } from '../../src/bench/grade-candidate.ts';
import { type LoadedInstance, loadInstances } from '../../src/bench/instances-file.ts';
import type { ConfigurationRun, TestStatus } from '../../src/core/run.schema.ts';
import { gradingReport, reportedRun } from '../helpers/grading-fixtures.ts';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'tandem-bench-n2p-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const REPO = 'acme/stats';
const state = { run: 'NONE', test: 'NONE', fix: 'PASS' };
/** 20 new tests of a new card, 2 tests the fix turns from failing to passing, one kept passing. */
const NEW = Array.from({ length: 20 }, (_, i) => `tests/card.test.js:renders option ${i}`);
const row = {
  org: 'acme',
  repo: 'stats',
  number: 7,
  base: { label: 'acme:master', ref: 'master', sha: 'd'.repeat(40) },
  resolved_issues: [{ number: 6, title: 'card ignores options', body: '' }],
  fix_patch: 'diff --git a/src/card.js b/src/card.js\n',
  test_patch: 'diff --git a/tests/card.test.js b/tests/card.test.js\n',
  f2p_tests: {
    'tests/api.test.js:hides the title': { run: 'FAIL', test: 'FAIL', fix: 'PASS' },
    'tests/api.test.js': { run: 'FAIL', test: 'FAIL', fix: 'PASS' },
  },
  p2p_tests: { 'tests/utils.test.js:pads': { run: 'PASS', test: 'PASS', fix: 'PASS' } },
  n2p_tests: Object.fromEntries(NEW.map((n) => [n, state])),
  s2p_tests: {},
  fixed_tests: {},
  suite: {
    name: 'stats',
    image: 'tandem/sandbox:node20',
    tests: [
      {
        name: 'unit',
        repo: REPO,
        run: 'true',
        results: { format: 'jest-json', path: 'j.json' },
        dataset_names: 'jest-leaf',
      },
    ],
  },
};

async function load(n2pAsF2p: boolean): Promise<LoadedInstance> {
  const f = path.join(dir, 'rows.jsonl');
  await writeFile(f, `${JSON.stringify(row)}\n`);
  return (await loadInstances(f, n2pAsF2p ? { n2pAsF2p } : {}))[0]!;
}

/** A no-op patch: the new card tests pass, the fixed ones still fail, the rest passes. */
function noOpRun(): ConfigurationRun {
  const tests: Array<[string, string, TestStatus]> = [
    ['stats/tests/api.test.js > api', 'hides the title', 'failed'],
    ['stats/tests/utils.test.js', 'pads', 'passed'],
    ...NEW.map((n): [string, string, TestStatus] => [
      'stats/tests/card.test.js > card',
      n.split(':')[1]!,
      'passed',
    ]),
  ];
  return reportedRun(REPO, 'full', [
    {
      name: 'unit',
      exitCode: 1,
      tests: tests.map(([c, n, status]) => ({ id: `unit::${c}::${n}`, status })),
    },
  ]);
}

function gradeNoOp(l: LoadedInstance) {
  return gradeCandidate({
    report: gradingReport(REPO),
    runs: [noOpRun()],
    suite: l.suite,
    lists: instanceLists(l),
    attempts: 1,
  }).report;
}

describe('N2P tests', () => {
  it('are neither F2P nor P2P by default: a no-op fixes nothing', async () => {
    const l = await load(false);
    expect(l.instance.FAIL_TO_PASS).toEqual(['tests/api.test.js:hides the title', 'tests/api.test.js']);
    expect(l.instance.PASS_TO_PASS).toEqual(['tests/utils.test.js:pads']);
    expect(l.instance.metadata.n2p_tests).toEqual(NEW);
    const r = gradeNoOp(l);
    expect(r.resolved).toBe(false);
    expect(r.verdict.fixRate).toBe(0);
    expect(r.tests_status.FAIL_TO_PASS.success).toEqual([]);
  });

  it('count as F2P only when asked (--n2p-as-f2p)', async () => {
    const l = await load(true);
    expect(l.instance.FAIL_TO_PASS).toEqual([
      'tests/api.test.js:hides the title',
      'tests/api.test.js',
      ...NEW,
    ]);
    expect(l.instance.metadata).not.toHaveProperty('n2p_tests');
    expect(gradeNoOp(l).verdict.fixRate).toBeCloseTo(20 / 22);
  });
});
