/**
 * `tandem bench run` on a Multi-SWE-bench row whose test patch adds a test (`n2p_tests`), as a
 * user runs it with real Docker: a README-only no-op fixes nothing (fix rate 0), because N2P
 * tests are neither FAIL_TO_PASS nor PASS_TO_PASS; `--n2p-as-f2p` counts them as FAIL_TO_PASS,
 * and then the same no-op scores the new test as fixed. The row is generated in the published
 * shape (test maps), never copied.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runSummarySchema } from '../../src/core/bench-report.schema.ts';
import { dockerSuite } from '../helpers/docker-suite.ts';
import { runCli } from '../helpers/example-cases.ts';
import { makeTempDir } from '../helpers/git-fixtures.ts';
import { type PublishedFixture, publishedFixture } from '../helpers/published-fixtures.ts';

const docker = dockerSuite('bench-n2p');
let fx: PublishedFixture;
let rows: string;
let noOp: string;

const README_ONLY = [
  'diff --git a/README.md b/README.md',
  '--- a/README.md',
  '+++ b/README.md',
  '@@ -1 +1,2 @@',
  ' clock',
  '+A clock that reads a value.',
  '',
].join('\n');

beforeAll(async () => {
  fx = await publishedFixture(docker.track(await makeTempDir('tandem-bench-n2p-')));
  const state = (test: string) => ({ run: test, test, fix: 'PASS' });
  rows = await fx.writeFile(
    'n2p-rows.json',
    JSON.stringify([
      {
        org: 'acme',
        repo: 'clock',
        number: 4,
        base: { label: 'acme:main', ref: 'main', sha: fx.repo.sha },
        resolved_issues: [{ number: 2, title: 'old value', body: 'The clock reads the old value.' }],
        fix_patch: fx.gold,
        test_patch: fx.testPatch,
        f2p_tests: { 'clock .read() returns the new value': state('FAIL') },
        // The suite's readme test stands for a test the test patch adds: it passes without the fix.
        n2p_tests: { 'clock has a readme': state('NONE') },
        p2p_tests: {},
        s2p_tests: {},
        fixed_tests: {},
      },
    ]),
  );
  noOp = await fx.writeFile(
    'noop.jsonl',
    JSON.stringify({ instance_id: 'acme__clock-4', model_name_or_path: 'noop', model_patch: README_ONLY }),
  );
}, 120_000);

async function fixRate(runId: string, ...extra: string[]) {
  const r = await runCli([
    'bench',
    'run',
    '--instances',
    rows,
    '--suites',
    fx.suites,
    '--predictions',
    noOp,
    '--run-id',
    runId,
    '--runs-dir',
    path.join(fx.root, 'runs'),
    '--quiet',
    ...docker.cliFlags(),
    ...extra,
  ]);
  expect(r.stderr).toBe('');
  expect(r.stdout).toMatch(/^noop: 0\/1 resolved/);
  const file = path.join(fx.root, 'runs', runId, `noop.${runId}.json`);
  return runSummarySchema.parse(JSON.parse(await readFile(file, 'utf8'))).metrics.fix_rate;
}

describe('N2P tests of a published Multi-SWE-bench row', () => {
  it('a no-op fixes nothing; --n2p-as-f2p counts the new test as F2P', async () => {
    expect(await fixRate('plain')).toBe(0);
    expect(await fixRate('opt-in', '--n2p-as-f2p')).toBe(0.5);
  });
});
