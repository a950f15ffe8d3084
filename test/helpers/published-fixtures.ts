/**
 * Published benchmark data, generated: one repository (`acme/clock`) whose fix turns
 * `src/value` from `old` into `new`, a test patch that adds the expectation, and three suites
 * whose hidden scripts write results in the shape jest (`--json`), mocha (a JUnit reporter) and
 * pytest (`--junitxml`) write them. Rows are written as SWE-bench and Multi-SWE-bench publish
 * them (lists as JSON text, test maps), with the tests named as those datasets name them, and a
 * suite map ties each row to its suite by repository and version. Nothing is copied from a
 * dataset: names and shapes only.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import YAML from 'yaml';
import type { SuiteInput } from '../../src/core/suite.schema.ts';
import { git, gitOut } from '../../src/engine/git/git.ts';
import { SANDBOX_IMAGE } from './example-cases.ts';
import { createRepo, type Files, type FixtureRepo, writeFiles } from './git-fixtures.ts';

export const REPO = 'acme/clock';

/** The fix is right when the value equals the expectation the test patch adds. */
const OK = '[ "$(cat clock/src/value)" = "$(cat clock/test/expect 2>/dev/null)" ]';

/** A script that writes `file` under $TANDEM_RESULTS from `body` (a shell here-document). */
function writer(file: string, body: string): string {
  return [
    '#!/bin/sh',
    `if ${OK}; then FIX=passed; else FIX=failed; fi`,
    `cat > "$TANDEM_RESULTS/${file}" <<EOF`,
    body,
    'EOF',
    '',
  ].join('\n');
}

/** jest --json: files under the workspace, a jest 22 array title, a describe block. */
const JEST = writer(
  'jest.json',
  JSON.stringify({
    numTotalTests: 3,
    testResults: [
      {
        name: '/tandem/workspace/clock/test/parse.test.js',
        status: 'passed',
        assertionResults: [
          { ancestorTitles: ['parse'], title: [2010, 1, 14], status: '$FIX', failureMessages: [] },
          { ancestorTitles: ['parse'], title: 'keeps strings', status: 'passed', failureMessages: [] },
        ],
      },
      {
        name: '/tandem/workspace/clock/test/format.test.js',
        status: 'passed',
        assertionResults: [{ ancestorTitles: [], title: 'formats', status: 'passed', failureMessages: [] }],
      },
    ],
  }),
);

/** `fix`: passes only with the fix; `pass` / `fail`: always. */
type CaseKind = 'fix' | 'pass' | 'fail';

const junitCase = (classname: string, name: string, kind: CaseKind) =>
  kind === 'fix'
    ? `<testcase classname="${classname}" name="${name}" time="0.01"$FAILURE`
    : kind === 'fail'
      ? `<testcase classname="${classname}" name="${name}" time="0.01"><failure message="broken">broken</failure></testcase>`
      : `<testcase classname="${classname}" name="${name}" time="0.01"/>`;

/** JUnit whose `fix` cases fail unless the fix is right (`$FAILURE` filled by the script). */
function junitWriter(file: string, suite: string, cases: Array<[string, string, CaseKind]>): string {
  const xml = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites><testsuite name="${suite}" tests="${cases.length}" timestamp="2020-01-01T00:00:00">`,
    ...cases.map(([c, n, f]) => junitCase(c, n, f)),
    '</testsuite></testsuites>',
  ].join('\n');
  return [
    '#!/bin/sh',
    `if ${OK}; then FAILURE="/>"; else FAILURE="><failure message=\\"expected new\\">AssertionError</failure></testcase>"; fi`,
    `cat > "$TANDEM_RESULTS/${file}" <<EOF`,
    xml,
    'EOF',
    '',
  ].join('\n');
}

const MOCHA = junitWriter('mocha.xml', 'Mocha Tests', [
  ['clock .read()', 'returns the new value', 'fix'],
  ['clock', 'has a readme', 'pass'],
]);
const PYTEST = junitWriter('pytest.xml', 'pytest', [
  ['tests.test_clock.TestClock', 'test_value[new]', 'fix'],
  ['tests.test_util', 'test_ok', 'pass'],
  // Fails on base and with the fix: a derived list leaves it out, and says why.
  ['tests.test_util', 'test_broken', 'fail'],
]);

type Runner = 'jest' | 'mocha' | 'pytest';
const GROUP: Record<Runner, { file: string; format: 'jest-json' | 'junit' }> = {
  jest: { file: 'jest.json', format: 'jest-json' },
  mocha: { file: 'mocha.xml', format: 'junit' },
  pytest: { file: 'pytest.xml', format: 'junit' },
};

/** A suite of one group for `runner`, naming tests as its dataset does (or not, for `names: false`). */
export function runnerSuite(runner: Runner, opts: { names?: boolean; image?: string } = {}): SuiteInput {
  return {
    name: `clock-${runner}`,
    image: opts.image ?? SANDBOX_IMAGE,
    tests: [
      {
        name: runner,
        repo: REPO,
        files: [`hidden/${runner}.sh`],
        run: `sh $TANDEM_HIDDEN/${runner}.sh`,
        results: { format: GROUP[runner].format, path: GROUP[runner].file },
        timeout: 60,
        ...(opts.names === false ? {} : { dataset_names: runner }),
      },
    ],
  };
}

export interface PublishedFixture {
  root: string;
  repo: FixtureRepo & { sha: string };
  gold: string;
  testPatch: string;
  /** SWE-bench rows (JSONL): the jest one and the pytest one, by version. */
  sweBench: string;
  /** Multi-SWE-bench rows (a JSON list): the mocha one. */
  multiSweBench: string;
  /** The suite map (versions jest and pytest; Multi-SWE-bench rows without a version: mocha). */
  suites: string;
  writeSuiteMap(
    name: string,
    over?: Partial<Record<Runner, { names?: boolean; image?: string }>>,
  ): Promise<string>;
  writeFile(name: string, text: string): Promise<string>;
}

export async function publishedFixture(root: string): Promise<PublishedFixture> {
  const repo = await createRepo(path.join(root, 'remotes'), 'clock', {
    'src/value': 'old\n',
    'README.md': 'clock\n',
  });
  const diff = async (files: Files): Promise<string> => {
    await writeFiles(repo.work, files);
    await git(['add', '--all'], { cwd: repo.work });
    const text = await gitOut(['diff', '--cached', '--no-color'], { cwd: repo.work });
    await git(['reset', '--quiet', '--hard', 'HEAD'], { cwd: repo.work });
    return `${text}\n`;
  };
  const gold = await diff({ 'src/value': 'new\n' });
  const testPatch = await diff({ 'test/expect': 'new\n' });
  await writeFiles(root, {
    'evaluator/hidden/jest.sh': JEST,
    'evaluator/hidden/mocha.sh': MOCHA,
    'evaluator/hidden/pytest.sh': PYTEST,
  });
  const put = async (name: string, text: string) => {
    const file = path.join(root, name);
    await writeFile(file, text);
    return file;
  };
  const writeSuiteMap: PublishedFixture['writeSuiteMap'] = async (name, over = {}) => {
    const entries = [];
    for (const runner of ['jest', 'pytest', 'mocha'] as const) {
      const suiteFile = `evaluator/${name}-${runner}.yml`;
      await put(suiteFile, YAML.stringify(runnerSuite(runner, over[runner] ?? {})));
      entries.push({
        repo: REPO,
        ...(runner === 'mocha' ? {} : { version: runner }),
        suite: suiteFile,
        url: 'remotes/clock.git',
      });
    }
    return put(`${name}.yml`, YAML.stringify({ suites: entries }));
  };
  const common = {
    repo: REPO,
    base_commit: repo.sha,
    patch: gold,
    test_patch: testPatch,
    problem_statement: 'The clock reads the old value.',
    created_at: '2020-01-01T00:00:00Z',
    hints_text: '',
    environment_setup_commit: repo.sha,
  };
  const sweBench = await put(
    'swe-bench.jsonl',
    [
      {
        instance_id: 'acme__clock-1',
        ...common,
        version: 'jest',
        // jest names: file-level entries and file:title, lists as JSON text as published.
        FAIL_TO_PASS: JSON.stringify(['test/parse.test.js', 'test/parse.test.js:parse 2010,1,14']),
        PASS_TO_PASS: JSON.stringify(['test/format.test.js', 'test/parse.test.js:parse keeps strings']),
      },
      {
        instance_id: 'acme__clock-2',
        ...common,
        version: 'pytest',
        FAIL_TO_PASS: ['tests/test_clock.py::TestClock::test_value[new]'],
        PASS_TO_PASS: ['tests/test_util.py::test_ok'],
      },
    ]
      .map((r) => JSON.stringify(r))
      .join('\n'),
  );
  const status = (test: string) => ({ run: 'PASS', test, fix: 'PASS' });
  const multiSweBench = await put(
    'multi-swe-bench.json',
    JSON.stringify(
      [
        {
          org: 'acme',
          repo: 'clock',
          number: 3,
          state: 'closed',
          title: 'Read the new value',
          body: 'Fixes #2',
          base: { label: 'acme:main', ref: 'main', sha: repo.sha },
          resolved_issues: [{ number: 2, title: 'old value', body: 'The clock reads the old value.' }],
          fix_patch: gold,
          test_patch: testPatch,
          fixed_tests: { 'clock .read() returns the new value': status('FAIL') },
          f2p_tests: { 'clock .read() returns the new value': status('FAIL') },
          p2p_tests: { 'clock has a readme': status('PASS') },
          s2p_tests: {},
          n2p_tests: {},
        },
      ],
      null,
      2,
    ),
  );
  return {
    root,
    repo,
    gold,
    testPatch,
    sweBench,
    multiSweBench,
    suites: await writeSuiteMap('suites'),
    writeSuiteMap,
    writeFile: put,
  };
}
