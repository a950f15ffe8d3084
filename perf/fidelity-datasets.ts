/**
 * Generated benchmark datasets for the grading-fidelity table: per runner, a few tests with
 * their status on base and with the gold patch, the result files the runner would write (one
 * per test group), and the FAIL_TO_PASS / PASS_TO_PASS lists the dataset would publish, written
 * out by hand in the dataset's own naming (not computed by Tandem's mapping, which is what is
 * checked). Test names are invented; only the runners' shapes are real.
 */
import type { DatasetNames } from '../src/core/dataset-names.ts';
import type { ResultFormat } from '../src/core/suite.schema.ts';
import {
  type GeneratedStatus,
  goTestJson,
  jestJson,
  junitXml,
  mochaCase,
  pytestCase,
} from '../test/support/runner-output.ts';

export type Side = 'base' | 'gold';

export interface FidelityDataset {
  name: string;
  repo: string;
  form: DatasetNames;
  format: ResultFormat;
  /** Test groups of the suite; each writes one result file. */
  groups: string[];
  output: (side: Side, group: string) => string;
  intended: { failToPass: string[]; passToPass: string[] };
}

/** Status on base, then with the gold patch. */
type Both = [GeneratedStatus, GeneratedStatus];
const on = (side: Side, [base, gold]: Both) => (side === 'base' ? base : gold);
const FIXED: Both = ['failed', 'passed'];
const KEPT: Both = ['passed', 'passed'];

interface JestSpec {
  file: string;
  describes: string[];
  title: string | unknown[];
  s: Both;
}

function jestDataset(
  name: string,
  form: DatasetNames,
  tests: JestSpec[],
  intended: FidelityDataset['intended'],
): FidelityDataset {
  return {
    name,
    repo: 'acme/clock',
    form,
    format: 'jest-json',
    groups: ['unit'],
    output: (side) => jestJson(tests.map((t) => ({ ...t, file: `clock/${t.file}`, status: on(side, t.s) }))),
    intended,
  };
}

const nested = jestDataset(
  'jest nested describes',
  'jest',
  [
    { file: 'test/parse.test.js', describes: ['parse', 'with a zone'], title: 'keeps the offset', s: FIXED },
    { file: 'test/parse.test.js', describes: ['parse'], title: 'reads ISO dates', s: KEPT },
    { file: 'test/format.test.js', describes: ['format', 'tokens', 'year'], title: 'YYYY pads', s: KEPT },
  ],
  {
    failToPass: ['test/parse.test.js', 'test/parse.test.js:parse with a zone keeps the offset'],
    passToPass: [
      'test/format.test.js',
      'test/format.test.js:format tokens year YYYY pads',
      'test/parse.test.js:parse reads ISO dates',
    ],
  },
);

const arrays = jestDataset(
  'jest array titles',
  'jest',
  [
    { file: 'test/parse.test.js', describes: ['parse'], title: [2010, 1, 14], s: FIXED },
    { file: 'test/parse.test.js', describes: ['parse'], title: [2010, 0], s: KEPT },
    { file: 'test/unit.test.js', describes: [], title: [42], s: KEPT },
  ],
  {
    failToPass: ['test/parse.test.js', 'test/parse.test.js:parse 2010,1,14'],
    passToPass: ['test/parse.test.js:parse 2010,0', 'test/unit.test.js', 'test/unit.test.js:42'],
  },
);

const leaf = jestDataset(
  'jest leaf titles (Multi-SWE-bench)',
  'jest-leaf',
  [
    { file: 'tests/card.test.js', describes: ['card', 'options'], title: 'hides the title', s: FIXED },
    { file: 'tests/card.test.js', describes: ['card'], title: 'renders', s: KEPT },
    { file: 'tests/api.test.js', describes: ['api'], title: 'responds', s: KEPT },
  ],
  {
    failToPass: ['tests/card.test.js', 'tests/card.test.js:hides the title'],
    passToPass: ['tests/api.test.js', 'tests/api.test.js:responds', 'tests/card.test.js:renders'],
  },
);

const MOCHA: Array<{ describes: string[]; title: string; s: Both }> = [
  { describes: ['app.all()'], title: 'should add a router per method', s: FIXED },
  { describes: ['res', '.send(body)'], title: 'should send a string', s: KEPT },
  { describes: ['req', '.query'], title: 'should parse "a[b]=c"', s: KEPT },
];

const mocha: FidelityDataset = {
  name: 'mocha (JUnit reporter)',
  repo: 'acme/router',
  form: 'mocha',
  format: 'junit',
  groups: ['unit'],
  output: (side) =>
    junitXml(
      'Mocha Tests',
      MOCHA.map((t) => mochaCase(t.describes, t.title, on(side, t.s))),
    ),
  intended: {
    failToPass: ['app.all() should add a router per method'],
    passToPass: ['req .query should parse "a[b]=c"', 'res .send(body) should send a string'],
  },
};

const PYTEST: Array<{ file: string; cls?: string; fn: string; s: Both }> = [
  { file: 'tests/test_models.py', cls: 'TestRequests', fn: 'test_get[http]', s: FIXED },
  { file: 'tests/test_models.py', cls: 'TestRequests', fn: 'test_get[https]', s: KEPT },
  { file: 'tests/test_utils.py', fn: 'test_round[1.5-2]', s: KEPT },
  { file: 'tests/test_utils.py', fn: 'test_round[none]', s: ['skipped', 'skipped'] },
];

const pytest: FidelityDataset = {
  name: 'pytest parametrized',
  repo: 'acme/requests',
  form: 'pytest',
  format: 'junit',
  groups: ['unit'],
  output: (side) =>
    junitXml(
      'pytest',
      PYTEST.map((t) => pytestCase(t.file, t.cls, t.fn, on(side, t.s))),
    ),
  intended: {
    failToPass: ['tests/test_models.py::TestRequests::test_get[http]'],
    passToPass: [
      'tests/test_models.py::TestRequests::test_get[https]',
      'tests/test_utils.py::test_round[1.5-2]',
    ],
  },
};

const GO: Array<{ test: string; s: Both }> = [
  { test: 'TestParse', s: FIXED },
  { test: 'TestParse/with_zone', s: FIXED },
  { test: 'TestParse/iso', s: KEPT },
  { test: 'TestFormat', s: KEPT },
];

const go: FidelityDataset = {
  name: 'go subtests',
  repo: 'acme/clockgo',
  form: 'go',
  format: 'go-test-json',
  groups: ['unit'],
  output: (side) =>
    goTestJson(GO.map((t) => ({ pkg: 'example.com/clockgo/parse', test: t.test, status: on(side, t.s) }))),
  intended: { failToPass: ['TestParse', 'TestParse/with_zone'], passToPass: ['TestFormat', 'TestParse/iso'] },
};

/** Per time-zone group: the parse file fails on base only in Tokyo; locale fails in gold in Berlin. */
const ZONES: Record<string, Record<string, Both>> = {
  utc: { 'test/parse.test.js': KEPT, 'test/format.test.js': KEPT, 'test/locale.test.js': KEPT },
  tokyo: { 'test/parse.test.js': FIXED, 'test/format.test.js': KEPT, 'test/locale.test.js': KEPT },
  berlin: {
    'test/parse.test.js': KEPT,
    'test/format.test.js': KEPT,
    'test/locale.test.js': ['passed', 'failed'],
  },
};

const zoneOutput = (side: Side, group: string) =>
  jestJson(
    Object.entries(ZONES[group]!).map(([file, s]) => ({
      file: `clock/${file}`,
      describes: ['zone'],
      title: 'works',
      status: on(side, s),
    })),
  );

const zones: FidelityDataset = {
  name: 'one file under several groups',
  repo: 'acme/clock',
  form: 'jest-file',
  format: 'jest-json',
  groups: Object.keys(ZONES),
  output: zoneOutput,
  intended: { failToPass: ['test/parse.test.js'], passToPass: ['test/format.test.js'] },
};

/** The same, published with full names beside the files. */
const zonesNamed: FidelityDataset = {
  ...zones,
  name: 'one file under several groups, full names',
  form: 'jest',
  intended: {
    failToPass: ['test/parse.test.js', 'test/parse.test.js:zone works'],
    passToPass: ['test/format.test.js', 'test/format.test.js:zone works'],
  },
};

export const FIDELITY_DATASETS: readonly FidelityDataset[] = [
  nested,
  arrays,
  leaf,
  mocha,
  pytest,
  go,
  zones,
  zonesNamed,
];
