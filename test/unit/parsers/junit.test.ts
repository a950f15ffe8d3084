import { describe, expect, it } from 'vitest';
import { parseJunit } from '../../../src/engine/results/parsers/junit.ts';
import { ResultParseError } from '../../../src/engine/results/parsers/parser.ts';
import { MESSAGE_CAP } from '../../../src/engine/results/parsers/result-builder.ts';
import { byId, idsAndStatuses, NODE_EDGE_RUN, NODE_RUN, resultFile } from '../../helpers/result-fixtures.ts';

/** A fixture parsed as group `unit`. */
const parsed = (name: string) => parseJunit(resultFile(name), 'unit');

describe('parseJunit: node --test junit reporter (real output)', () => {
  const results = parsed('node-junit.xml');

  it('builds classnames from the enclosing describe blocks, not node\'s "test" placeholder', () => {
    expect(idsAndStatuses(results)).toEqual(NODE_RUN);
  });

  it('keeps the failure message, drops node\'s message="true" on skips, and reads durations', () => {
    const map = byId(results);
    expect(map.get('unit::with subtests::sub b')?.message).toMatch(/^sub b broke\n/);
    expect(map.get('unit::Calculator::skipped one')?.message).toBeUndefined();
    expect(map.get('unit::Calculator::adds')?.durationMs).toBeCloseTo(0.307, 6);
    expect(map.get('unit::::top level passes')?.message).toBeUndefined();
  });

  it('gives the same ids as the TAP reporter for the same tests', async () => {
    const { parseTap } = await import('../../../src/engine/results/parsers/tap.ts');
    const tapIds = parseTap(resultFile('node-tap.tap'), 'unit').map((r) => r.id);
    expect(results.map((r) => r.id)).toEqual(tapIds);
  });

  it('reports hook failures and describe bodies that throw', () => {
    const edge = parsed('node-junit-edge.xml');
    expect(idsAndStatuses(edge)).toEqual(NODE_EDGE_RUN);
    expect(edge[2]?.message).toMatch(/^describe body boom/);
  });
});

describe('parseJunit: pytest --junitxml', () => {
  const map = byId(parsed('pytest-junit.xml'));

  it('uses the dotted classname and maps failure, error and skipped', () => {
    expect(map.get('unit::tests.test_calc.TestAdd::test_add')?.status).toBe('passed');
    expect(map.get('unit::tests.test_calc.TestAdd::test_add_negative')?.status).toBe('failed');
    expect(map.get('unit::tests.test_calc.TestAdd::test_skip_platform')?.status).toBe('skipped');
    expect(map.get('unit::tests.test_calc::test_needs_db')?.status).toBe('error');
    expect(map.get('unit::tests.test_calc::test_known_bug')?.status).toBe('skipped');
    expect(map.get('unit::tests.test_calc::test_param[1-2]')?.status).toBe('passed');
  });

  it('decodes entities (&#10; included) and puts the attribute before the body', () => {
    const msg = map.get('unit::tests.test_calc.TestAdd::test_add_negative')?.message ?? '';
    expect(msg.startsWith('assert -1 == 1\n +  where -1 = add(-2, 1)\nself = <tests.test_calc.TestAdd')).toBe(
      true,
    );
    expect(map.get('unit::tests.test_calc::test_needs_db')?.message).toMatch(
      /^failed on setup with "fixture 'db' not found"/,
    );
    expect(map.get('unit::tests.test_calc::test_known_bug')?.message).toBe('issue #12');
  });

  it('keeps a repeated testcase apart and lets failure outrank a teardown error', () => {
    expect(map.get('unit::tests.test_io.TestReader::test_read')?.status).toBe('failed');
    expect(map.get('unit::tests.test_io.TestReader::test_read #2')?.status).toBe('passed');
    expect(map.get('unit::tests.test_io.TestReader::test_cleanup')?.status).toBe('error');
    expect(map.size).toBe(10);
  });
});

describe('parseJunit: jest-junit and go-junit-report', () => {
  it('jest-junit: keeps duplicate names apart, decodes entities, reads body-only failures', () => {
    const results = parseJunit(resultFile('jest-junit.xml'), 'web');
    expect(results.map((r) => r.id)).toEqual([
      'web::Calculator adds::Calculator adds',
      'web::Calculator divides by zero::Calculator divides by zero',
      'web::Calculator skipped one::Calculator skipped one',
      'web::Calculator adds::Calculator adds #2',
      'web::parser nested > works::parser nested > works',
      'web::parser handles "quotes" & ampersands::parser handles "quotes" & ampersands',
    ]);
    expect(results[1]?.message).toMatch(/^Error: expect\(received\)\.toThrow\(expected\)/);
    expect(results[2]?.status).toBe('skipped');
  });

  it('go-junit-report v2: package classname, subtests by name, build failure as an error', () => {
    const map = byId(parsed('go-junit-report-v2.xml'));
    expect([...map.keys()]).toEqual([
      'unit::github.com/acme/api/calc::TestAdd',
      'unit::github.com/acme/api/calc::TestAdd/negative',
      'unit::github.com/acme/api/calc::TestDivide',
      'unit::github.com/acme/api/calc::TestSkipMe',
      'unit::github.com/acme/api/calc::TestFlaky',
      'unit::github.com/acme/api/broken::[build failed]',
    ]);
    expect(map.get('unit::github.com/acme/api/calc::TestDivide')).toMatchObject({
      status: 'failed',
      message: 'Failed\ncalc_test.go:21: Divide(1, 0) = 0, want error',
      durationMs: 1,
    });
    expect(map.get('unit::github.com/acme/api/broken::[build failed]')?.status).toBe('error');
  });

  it('go-junit-report v1: short classname, skip reason from the attribute', () => {
    const results = parsed('go-junit-report-v1.xml');
    expect(results.map((r) => [r.id, r.status, r.message])).toEqual([
      ['unit::calc::TestAdd', 'passed', undefined],
      ['unit::calc::TestDivide', 'failed', 'Failed\ncalc_test.go:21: Divide(1, 0) = 0, want error'],
      ['unit::calc::TestSkipMe', 'skipped', 'calc_test.go:30: needs network'],
    ]);
  });

  it('a bare <testsuite> without classnames uses the suite name; retry records do not decide', () => {
    expect(idsAndStatuses(parseJunit(resultFile('bare-testsuite.xml'), 'ui'))).toEqual([
      ['ui::github.com/acme/web/ui::TestRender', 'passed'],
      ['ui::github.com/acme/web/ui::TestLayout', 'passed'],
      ['ui::github.com/acme/web/ui::TestRetried', 'failed'],
    ]);
  });
});

describe('parseJunit: edges', () => {
  it('empty <testsuites/> and an empty <testsuite> are zero tests', () => {
    expect(parseJunit('<?xml version="1.0"?>\n<testsuites/>', 'g')).toEqual([]);
    expect(parseJunit('<testsuite name="x" tests="0"></testsuite>', 'g')).toEqual([]);
  });

  it('caps long messages', () => {
    const long = 'x'.repeat(10_000);
    const [r] = parseJunit(
      `<testsuite name="s"><testcase classname="c" name="n"><failure>${long}</failure></testcase></testsuite>`,
      'g',
    );
    expect(r?.message?.length).toBe(MESSAGE_CAP);
    expect(r?.message?.endsWith('…')).toBe(true);
  });

  it('ids do not depend on durations or hostnames', () => {
    const a =
      '<testsuite name="s" hostname="a" time="1"><testcase classname="c" name="n" time="0.5"/></testsuite>';
    const b =
      '<testsuite name="s" hostname="b" time="9"><testcase classname="c" name="n" time="7.25"/></testsuite>';
    expect(parseJunit(a, 'g')[0]?.id).toBe(parseJunit(b, 'g')[0]?.id);
  });

  it('rejects malformed XML with the line and column', () => {
    expect(() => parseJunit('<testsuites>\n  <testsuite name="a">\n</testsuites>', 'g')).toThrow(
      /malformed JUnit XML at line 3, column \d+: .*testsuite/,
    );
    expect(() => parseJunit('Traceback (most recent call last):', 'g')).toThrow(ResultParseError);
  });

  it('rejects XML that is not a JUnit report, and empty files', () => {
    expect(() => parseJunit('<html><body>502</body></html>', 'g')).toThrow(
      'expected a <testsuites> or <testsuite> root element in JUnit XML, found <html>',
    );
    expect(() => parseJunit('  \n', 'g')).toThrow(new ResultParseError('JUnit XML result file is empty'));
  });

  it('does not expand DOCTYPE entities', () => {
    const text =
      '<?xml version="1.0"?><!DOCTYPE t [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;">]>' +
      '<testsuite name="s"><testcase classname="c" name="n"><failure>&b;</failure></testcase></testsuite>';
    const [r] = parseJunit(text, 'g');
    expect(r?.status).toBe('failed');
    expect(r?.message).toBe('&b;');
  });

  it("reads pytest's collection error as the module's (collection error), not as a test", () => {
    const text = `<?xml version="1.0" encoding="utf-8"?><testsuites name="pytest tests"><testsuite name="pytest" errors="1" failures="0" skipped="0" tests="1"><testcase classname="" name="tests.test_x" time="0.000"><error message="collection failure">ImportError while importing test module '/w/tests/test_x.py'.
E   ImportError: cannot import name 'new_thing' from 'rates'</error></testcase></testsuite></testsuites>`;
    const results = parseJunit(text, 'py');
    expect(idsAndStatuses(results)).toEqual([['py::tests.test_x::(collection error)', 'error']]);
    expect(results[0]?.message).toMatch(/^collection failure\nImportError while importing/);
  });
});
