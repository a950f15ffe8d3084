/**
 * Published benchmark data as it is: SWE-bench and Multi-SWE-bench rows (JSONL or a JSON list,
 * lists as JSON text, test maps), suites mapped to rows by repository and version, a refusal
 * naming the row and repository, dataset test names for jest, mocha, pytest and go, the message
 * when listed names are never reported, flaky tests from matrix repeats, and a one-repository
 * `model_patch` with repository-relative paths. Rows are written here, never copied from a dataset.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { loadInstances } from '../../src/bench/instances-file.ts';
import { predictionPatches } from '../../src/bench/prediction-patches.ts';
import {
  datasetNamesOf,
  mapRunsToDatasetNames,
  type NamedGroup,
  qualifyLists,
  unreportedNamesMessage,
} from '../../src/core/dataset-names.ts';
import { InputError } from '../../src/core/errors.ts';
import { matrixFlaky } from '../../src/core/matrix-flaky.ts';
import type { TestStatus } from '../../src/core/run.schema.ts';
import { configurationRun } from '../helpers/result-fixtures.ts';

let dir: string;
const suite = (name: string) => ({
  name,
  image: 'tandem/sandbox:node20',
  tests: [
    {
      name: 'unit',
      repo: 'acme/dayjs',
      run: 'true',
      results: { format: 'jest-json', path: 'j.json' },
      dataset_names: 'jest',
    },
  ],
});

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'tandem-bench-published-'));
  await writeFile(path.join(dir, 'dayjs-1.yml'), YAML.stringify(suite('dayjs-1')));
  await writeFile(path.join(dir, 'dayjs-any.yml'), YAML.stringify(suite('dayjs-any')));
  await writeFile(
    path.join(dir, 'suites.yml'),
    YAML.stringify({
      suites: [
        { repo: 'acme/dayjs', version: '1.8', suite: 'dayjs-1.yml', url: 'remotes/dayjs.git' },
        { repo: 'acme/dayjs', suite: 'dayjs-any.yml', url: 'remotes/dayjs.git' },
      ],
    }),
  );
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const sweRow = (over: Record<string, unknown> = {}) => ({
  instance_id: 'acme__dayjs-10',
  repo: 'acme/dayjs',
  base_commit: 'a'.repeat(40),
  patch: 'diff --git a/src/x.js b/src/x.js\n',
  test_patch: 'diff --git a/test/x.test.js b/test/x.test.js\n',
  FAIL_TO_PASS: JSON.stringify(['test/x.test.js']),
  PASS_TO_PASS: '[]',
  version: '1.8',
  environment_setup_commit: 'b'.repeat(40),
  problem_statement: 'x breaks',
  created_at: '2020-01-01T00:00:00Z',
  hints_text: '',
  ...over,
});

const multiRow = (over: Record<string, unknown> = {}) => ({
  org: 'acme',
  repo: 'dayjs',
  number: 11,
  state: 'closed',
  title: 'fix parse',
  body: 'Fixes #9',
  base: { label: 'acme:dev', ref: 'dev', sha: 'c'.repeat(40) },
  resolved_issues: [{ number: 9, title: 'parse of arrays', body: 'dayjs([2010, 1, 14]) is wrong' }],
  fix_patch: 'diff --git a/src/parse.js b/src/parse.js\n',
  test_patch: 'diff --git a/test/parse.test.js b/test/parse.test.js\n',
  fixed_tests: { 'test/parse.test.js': { run: 'PASS', test: 'FAIL', fix: 'PASS' } },
  p2p_tests: { 'test/other.test.js': { run: 'PASS', test: 'PASS', fix: 'PASS' } },
  f2p_tests: { 'test/parse.test.js': { run: 'PASS', test: 'FAIL', fix: 'PASS' } },
  s2p_tests: {},
  n2p_tests: { 'test/parse.test.js:parses 2010,1,14': { run: 'NONE', test: 'NONE', fix: 'PASS' } },
  run_result: { passed_count: 10 },
  ...over,
});

async function file(name: string, text: string): Promise<string> {
  const f = path.join(dir, name);
  await writeFile(f, text);
  return f;
}
const suitesFile = () => path.join(dir, 'suites.yml');

describe('published rows, read as they are', () => {
  it('a SWE-bench row takes the suite of its repository and version, the URL from the map', async () => {
    const f = await file('swe.jsonl', `${JSON.stringify(sweRow())}\n`);
    const [l] = await loadInstances(f, { suites: suitesFile() });
    expect(l!.suite.name).toBe('dayjs-1');
    expect(l!.instance.repos[0]).toMatchObject({
      repo: 'acme/dayjs',
      url: path.join(dir, 'remotes/dayjs.git'),
    });
    expect(l!.instance.FAIL_TO_PASS).toEqual(['test/x.test.js']);
    expect(l!.instance.PASS_TO_PASS).toEqual([]);
    expect(l!.instance.metadata).toMatchObject({
      source: 'swe-bench',
      version: '1.8',
      environment_setup_commit: 'b'.repeat(40),
    });
    // Another version falls back to the repository's entry without a version.
    const g = await file('swe2.jsonl', `${JSON.stringify(sweRow({ version: 2 }))}\n`);
    expect((await loadInstances(g, { suites: suitesFile() }))[0]!.suite.name).toBe('dayjs-any');
  });

  it('a Multi-SWE-bench row in a JSON list: F2P from f2p and s2p, P2P from p2p, n2p in metadata', async () => {
    const f = await file('multi.json', JSON.stringify([multiRow(), multiRow({ number: 12 })], null, 2));
    const loaded = await loadInstances(f, { suites: suitesFile() });
    expect(loaded.map((l) => l.instance.instance_id)).toEqual(['acme__dayjs-11', 'acme__dayjs-12']);
    const i = loaded[0]!.instance;
    expect(i.repos[0]).toMatchObject({
      repo: 'acme/dayjs',
      base_commit: 'c'.repeat(40),
      patch: multiRow().fix_patch,
      test_patch: multiRow().test_patch,
    });
    expect(i.FAIL_TO_PASS).toEqual(['test/parse.test.js']);
    expect(i.PASS_TO_PASS).toEqual(['test/other.test.js']);
    expect(i.problem_statement).toBe('parse of arrays\n\ndayjs([2010, 1, 14]) is wrong');
    expect(i.metadata).toMatchObject({
      source: 'multi-swe-bench',
      number: 11,
      base_ref: 'dev',
      state: 'closed',
      n2p_tests: ['test/parse.test.js:parses 2010,1,14'],
    });
    expect(i.metadata).not.toHaveProperty('run_result');
    expect(loaded[0]!.source).toBe(`${f}: [0]`);
  });

  it('refuses a row no suite covers, naming the row and the repository', async () => {
    const f = await file(
      'other.jsonl',
      `${JSON.stringify(multiRow({ org: 'zeta', repo: 'express', number: 3 }))}\n`,
    );
    const err = await loadInstances(f, { suites: suitesFile() }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InputError);
    expect((err as Error).message).toBe(
      `${f}:1: row "zeta__express-3" (repository "zeta/express"): no suite in ${suitesFile()} covers this repository; add an entry {repo: "zeta/express", suite: …}`,
    );
    const g = await file('nosuite.jsonl', `${JSON.stringify(sweRow())}\n`);
    await expect(loadInstances(g)).rejects.toThrow(
      /row "acme__dayjs-10" \(repository "acme\/dayjs", version "1.8"\): no suite; give the row a "suite" or map repositories to suites with --suites <file>/,
    );
  });
});

function run(id: string, applied: string[], tests: Array<[string, TestStatus]>, group = 'unit', attempt = 0) {
  return configurationRun(id, applied, tests, { group, repo: 'acme/dayjs', attempt });
}

describe('test names as the dataset writes them', () => {
  it('jest: file-level entries and file:title, the repository folder cut off', () => {
    expect(
      datasetNamesOf('jest', 'unit::dayjs/test/parse.test.js > parse > arrays::2010,1,14', 'acme/dayjs'),
    ).toEqual({
      name: 'test/parse.test.js:parse arrays 2010,1,14',
      file: 'test/parse.test.js',
    });
    expect(datasetNamesOf('jest', 'unit::dayjs/test/a.test.js::(file failed to load)', 'acme/dayjs')).toEqual(
      {
        file: 'test/a.test.js',
      },
    );
  });

  it('mocha "classname name", pytest path::Class::name, go the test name', () => {
    expect(datasetNamesOf('mocha', 'unit::res.send()::should send a body', 'acme/express').name).toBe(
      'res.send() should send a body',
    );
    expect(datasetNamesOf('pytest', 'py::tests.test_models.TestRequests::test_get[http]').name).toBe(
      'tests/test_models.py::TestRequests::test_get[http]',
    );
    expect(datasetNamesOf('pytest', 'py::tests.test_utils::test_x').name).toBe('tests/test_utils.py::test_x');
    expect(datasetNamesOf('go', 'go::example.com/x::TestA/sub').name).toBe('TestA/sub');
  });

  it('a file-level entry fails when any test of the file fails', () => {
    const groups: NamedGroup[] = [{ name: 'unit', repo: 'acme/dayjs', dataset_names: 'jest' }];
    const [mapped] = mapRunsToDatasetNames(
      [
        run(
          'full',
          ['acme/dayjs'],
          [
            ['unit::dayjs/test/a.test.js::one', 'passed'],
            ['unit::dayjs/test/a.test.js::two', 'failed'],
            ['unit::dayjs/test/b.test.js::three', 'passed'],
          ],
        ),
      ],
      groups,
    );
    expect(mapped!.groups[0]!.tests.map((t) => [t.id, t.status])).toEqual([
      ['unit::test/a.test.js:one', 'passed'],
      ['unit::test/a.test.js', 'failed'],
      ['unit::test/a.test.js:two', 'failed'],
      ['unit::test/b.test.js:three', 'passed'],
      ['unit::test/b.test.js', 'passed'],
    ]);
  });

  it('listed names never reported: how many, two of each side, the setting', () => {
    const groups: NamedGroup[] = [{ name: 'unit', repo: 'acme/dayjs', dataset_names: 'mocha' }];
    const runs = mapRunsToDatasetNames(
      [
        run(
          'full',
          [],
          [
            ['unit::app::works', 'passed'],
            ['unit::app::routes', 'passed'],
            ['unit::res::sends', 'passed'],
          ],
        ),
      ],
      groups,
    );
    const q = qualifyLists(
      { failToPass: ['app works', 'app.get works', 'res json'], passToPass: ['x y'] },
      runs,
      groups,
    );
    expect(q.failToPass).toEqual(['unit::app works', 'unit::app.get works', 'unit::res json']);
    expect(q.unreported).toEqual(['app.get works', 'res json', 'x y']);
    expect(unreportedNamesMessage(q, runs, groups)).toBe(
      '3 of 4 listed test(s) were never reported. Listed: "app.get works", "res json"; reported: "app routes", "res sends". ' +
        'The suite maps names with tests[0].dataset_names: mocha (one of tandem, jest, jest-leaf, jest-file, mocha, pytest, go).',
    );
  });
});

describe('flaky tests from the matrix', () => {
  it('a test that differs between configurations holding its repository at the same state', () => {
    const runs = [
      run(
        'base',
        [],
        [
          ['unit::t::a', 'failed'],
          ['unit::t::b', 'passed'],
        ],
      ),
      run(
        'acme/web',
        ['acme/web'],
        [
          ['unit::t::a', 'failed'],
          ['unit::t::b', 'failed'],
        ],
      ),
      run(
        'acme/dayjs',
        ['acme/dayjs'],
        [
          ['unit::t::a', 'passed'],
          ['unit::t::b', 'passed'],
        ],
      ),
      run(
        'full',
        ['acme/dayjs', 'acme/web'],
        [
          ['unit::t::a', 'passed'],
          ['unit::t::b', 'passed'],
        ],
      ),
    ];
    expect(matrixFlaky(runs, [{ name: 'unit', repo: 'acme/dayjs' }], ['acme/dayjs', 'acme/web'])).toEqual([
      { id: 'unit::t::b', statuses: ['passed', 'failed'], configurations: ['base', 'acme/web'] },
    ]);
    // What the group is wired to is part of its state: then no two configurations match.
    expect(
      matrixFlaky(
        runs,
        [{ name: 'unit', repo: 'acme/dayjs' }],
        ['acme/dayjs', 'acme/web'],
        [{ into: 'acme/dayjs', repo: 'acme/web' }],
      ),
    ).toEqual([]);
  });
});

describe('a one-repository model_patch', () => {
  const instance = (patch: string) => ({
    instance_id: 'i',
    problem_statement: '',
    repos: [{ repo: 'acme/dayjs', url: 'u', base_commit: 'c', patch }],
    context: [],
    suite: 's',
    provenance: [],
    metadata: {},
  });
  const diff = (p: string) => `diff --git a/${p} b/${p}\n--- a/${p}\n+++ b/${p}\n@@ -1 +1 @@\n-a\n+b\n`;

  it('takes repository-relative paths as SWE-bench writes them (the gold patch too)', () => {
    const gold = diff('src/x.js');
    const p = predictionPatches(
      { instance_id: 'i', model_name_or_path: 'm', model_patch: gold },
      instance(gold),
      'f',
    );
    expect(p).toEqual({ patchIsNone: false, patchExists: true, patches: { 'acme/dayjs': gold } });
  });

  it('still splits a folder-prefixed diff, unless the repository has a folder of its own name', () => {
    const prefixed = diff('dayjs/src/x.js');
    /** acme/dayjs's part of the prefixed prediction, for an instance whose gold patch is `gold`. */
    const dayjsPart = (gold: string) =>
      predictionPatches(
        { instance_id: 'i', model_name_or_path: 'm', model_patch: prefixed },
        instance(gold),
        'f',
      ).patches['acme/dayjs'];
    expect(dayjsPart(diff('src/x.js'))).toBe(diff('src/x.js'));
    // Gold paths under dayjs/ too: the folder is the repository's own.
    expect(dayjsPart(diff('dayjs/y.js'))).toBe(prefixed);
  });
});
