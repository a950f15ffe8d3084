/**
 * Result files as test runners write them, generated from a list of tests: `jest --json`
 * (describe blocks as `ancestorTitles`, jest 22's non-string titles kept as given), JUnit XML as
 * a mocha JUnit reporter writes it (suite titles as `classname`) and as pytest `--junitxml`
 * writes it (dotted module and class as `classname`, parameters in the name), and `go test -json`
 * events (subtests as `TestX/sub`). Used by grading tests and the grading-fidelity bench; nothing
 * here is copied from a runner or a dataset, only the shapes.
 */

export type GeneratedStatus = 'passed' | 'failed' | 'skipped';

/** One jest test: file relative to the workspace (`<repo folder>/<path>`). */
export interface JestTest {
  file: string;
  describes: string[];
  /** A string, or what jest 22 keeps for `it([2010, 1, 14])`. */
  title: string | unknown[];
  status: GeneratedStatus;
}

const JEST_STATUS: Record<GeneratedStatus, string> = {
  passed: 'passed',
  failed: 'failed',
  skipped: 'pending',
};

export function jestJson(tests: readonly JestTest[]): string {
  const files = [...new Set(tests.map((t) => t.file))];
  return JSON.stringify({
    numTotalTests: tests.length,
    testResults: files.map((file) => {
      const mine = tests.filter((t) => t.file === file);
      return {
        name: `/tandem/workspace/${file}`,
        status: mine.some((t) => t.status === 'failed') ? 'failed' : 'passed',
        assertionResults: mine.map((t) => ({
          ancestorTitles: t.describes,
          title: t.title,
          status: JEST_STATUS[t.status],
          failureMessages: t.status === 'failed' ? ['Error: expect(received).toBe(expected)'] : [],
        })),
      };
    }),
  });
}

/** One JUnit testcase: `classname` and `name` as the reporter writes them. */
export interface JunitTest {
  classname: string;
  name: string;
  status: GeneratedStatus;
}

const attr = (s: string) =>
  s.replaceAll('&', '&amp;').replaceAll('"', '&quot;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');

export function junitXml(suite: string, tests: readonly JunitTest[]): string {
  const body = tests.map((t) => {
    const open = `<testcase classname="${attr(t.classname)}" name="${attr(t.name)}" time="0.01"`;
    if (t.status === 'passed') return `${open}/>`;
    if (t.status === 'skipped') return `${open}><skipped/></testcase>`;
    return `${open}><failure message="assertion failed">AssertionError</failure></testcase>`;
  });
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites><testsuite name="${attr(suite)}" tests="${tests.length}">`,
    ...body,
    '</testsuite></testsuites>',
  ].join('\n');
}

/** A mocha test: its describe titles (the reporter's classname, space-joined) and title. */
export function mochaCase(describes: string[], title: string, status: GeneratedStatus): JunitTest {
  return { classname: describes.join(' '), name: title, status };
}

/** A pytest test: `tests/test_x.py`, an optional class, the function and its parameter id. */
export function pytestCase(
  file: string,
  cls: string | undefined,
  fn: string,
  status: GeneratedStatus,
): JunitTest {
  const module = file.replace(/\.py$/, '').replaceAll('/', '.');
  return { classname: cls ? `${module}.${cls}` : module, name: fn, status };
}

/** One `go test -json` test (`TestX` or `TestX/sub`) of a package. */
export interface GoTest {
  pkg: string;
  test: string;
  status: GeneratedStatus;
}

const GO_ACTION: Record<GeneratedStatus, string> = { passed: 'pass', failed: 'fail', skipped: 'skip' };

export function goTestJson(tests: readonly GoTest[]): string {
  const events = tests.flatMap((t) => [
    { Action: 'run', Package: t.pkg, Test: t.test },
    { Action: 'output', Package: t.pkg, Test: t.test, Output: `=== RUN   ${t.test}\n` },
    { Action: GO_ACTION[t.status], Package: t.pkg, Test: t.test, Elapsed: 0.01 },
  ]);
  const pkgs = [...new Set(tests.map((t) => t.pkg))];
  const done = pkgs.map((pkg) => ({
    Action: tests.some((t) => t.pkg === pkg && t.status === 'failed') ? 'fail' : 'pass',
    Package: pkg,
    Elapsed: 0.1,
  }));
  return [...events, ...done].map((e) => JSON.stringify(e)).join('\n');
}
