import { describe, expect, it } from 'vitest';
import { parseGoTestJson } from '../../../src/engine/results/parsers/go-test-json.ts';
import { ResultParseError } from '../../../src/engine/results/parsers/parser.ts';
import { byId, idsAndStatuses, resultFile } from '../../helpers/result-fixtures.ts';

const ev = (e: Record<string, unknown>) => JSON.stringify(e);

describe('parseGoTestJson', () => {
  const results = parseGoTestJson(resultFile('go-test.jsonl'), 'go');
  const map = byId(results);

  it('uses package and test names, keeps subtests whole; a package that did not build is one failure', () => {
    expect(idsAndStatuses(results)).toEqual([
      ['go::github.com/acme/api/calc::TestAdd', 'passed'],
      ['go::github.com/acme/api/calc::TestAdd/negative', 'passed'],
      ['go::github.com/acme/api/calc::TestDivide', 'failed'],
      ['go::github.com/acme/api/calc::TestSkipMe', 'skipped'],
      ['go::github.com/acme/api/calc::TestParallel', 'passed'],
      ['go::github.com/acme/api/calc::TestFlaky', 'passed'],
      ['go::github.com/acme/api/calc::TestRegress', 'failed'],
      ['go::github.com/acme/api/server::TestServe', 'passed'],
      ['go::github.com/acme/api/server::TestSlow', 'failed'],
      ['go::github.com/acme/api/broken::[build failed]', 'failed'],
    ]);
    expect(map.get('go::github.com/acme/api/broken::[build failed]')?.message).toContain('syntax error');
  });

  it("lets the last run of a repeated test win, with that run's output only", () => {
    expect(map.get('go::github.com/acme/api/calc::TestFlaky')?.message).toBeUndefined();
    expect(map.get('go::github.com/acme/api/calc::TestRegress')).toEqual({
      id: 'go::github.com/acme/api/calc::TestRegress',
      status: 'failed',
      message: 'calc_test.go:50: second run saw stale cache',
      durationMs: 2,
    });
  });

  it("messages are the test's own output without the RUN/FAIL framing", () => {
    expect(map.get('go::github.com/acme/api/calc::TestDivide')?.message).toBe(
      'calc_test.go:21: Divide(1, 0) = 0, want error',
    );
    expect(map.get('go::github.com/acme/api/calc::TestSkipMe')?.message).toBe(
      'calc_test.go:30: needs network',
    );
    expect(map.get('go::github.com/acme/api/calc::TestParallel')?.durationMs).toBe(10);
  });

  it('a test that started and never finished fails with its output', () => {
    const slow = map.get('go::github.com/acme/api/server::TestSlow');
    expect(slow?.message).toMatch(/^test did not finish .*\npanic: test timed out after 1s/);
  });

  it('a plain-text build failure among other packages\' events is that package\'s "build failed" (go < 1.24)', () => {
    const results = parseGoTestJson(resultFile('go-test-plain-build.jsonl'), 'go');
    expect(idsAndStatuses(results)).toEqual([
      ['go::github.com/acme/api/calc::TestAdd', 'passed'],
      ['go::github.com/acme/api/broken::[build failed]', 'failed'],
    ]);
    expect(results[1]!.message).toBe(
      'the package did not build\nbroken/x.go:3:1: syntax error: non-declaration statement outside function body',
    );
  });

  it('go 1.19 stdout alone, one package broken and one fine (as `go test -json ./... > file` writes it)', () => {
    const text = [
      'FAIL\texample.com/acme/lib [build failed]',
      ev({ Action: 'run', Package: 'example.com/acme/lib/ok', Test: 'TestOk' }),
      ev({ Action: 'pass', Package: 'example.com/acme/lib/ok', Test: 'TestOk', Elapsed: 0 }),
      ev({ Action: 'pass', Package: 'example.com/acme/lib/ok', Elapsed: 0.009 }),
    ].join('\n');
    expect(idsAndStatuses(parseGoTestJson(text, 'go'))).toEqual([
      ['go::example.com/acme/lib/ok::TestOk', 'passed'],
      ['go::example.com/acme/lib::[build failed]', 'failed'],
    ]);
  });

  it('a package that did not build is "build failed" for that package (go < 1.24 stream)', () => {
    const text = [
      '# x/broken',
      'broken.go:3:1: syntax error: non-declaration statement outside function body',
      ev({ Action: 'start', Package: 'x/broken' }),
      ev({ Action: 'output', Package: 'x/broken', Output: 'FAIL\tx/broken [build failed]\n' }),
      ev({ Action: 'fail', Package: 'x/broken', Elapsed: 0 }),
      ev({ Action: 'run', Package: 'x/ok', Test: 'TestA' }),
      ev({ Action: 'pass', Package: 'x/ok', Test: 'TestA' }),
    ].join('\n');
    expect(idsAndStatuses(parseGoTestJson(text, 'go'))).toEqual([
      ['go::x/ok::TestA', 'passed'],
      ['go::x/broken::[build failed]', 'failed'],
    ]);
  });

  it('go 1.24 build events: the compiler output becomes the message', () => {
    const text = [
      ev({ ImportPath: 'x/broken [x/broken.test]', Action: 'build-output', Output: '# x/broken\n' }),
      ev({
        ImportPath: 'x/broken [x/broken.test]',
        Action: 'build-output',
        Output: 'a.go:1: undefined: Foo\n',
      }),
      ev({ ImportPath: 'x/broken [x/broken.test]', Action: 'build-fail' }),
      ev({ Action: 'start', Package: 'x/broken' }),
      ev({ Action: 'fail', Package: 'x/broken', Elapsed: 0, FailedBuild: 'x/broken [x/broken.test]' }),
    ].join('\n');
    const [r] = parseGoTestJson(text, 'go');
    expect(r).toMatchObject({ id: 'go::x/broken::[build failed]', status: 'failed' });
    expect(r!.message).toContain('undefined: Foo');
  });

  it('same test name in two packages stays two tests', () => {
    const text = [
      ev({ Action: 'run', Package: 'a', Test: 'TestX' }),
      ev({ Action: 'pass', Package: 'a', Test: 'TestX' }),
      ev({ Action: 'run', Package: 'b', Test: 'TestX' }),
      ev({ Action: 'fail', Package: 'b', Test: 'TestX' }),
    ].join('\n');
    expect(idsAndStatuses(parseGoTestJson(text, 'go'))).toEqual([
      ['go::a::TestX', 'passed'],
      ['go::b::TestX', 'failed'],
    ]);
  });

  it('output without run (benchmarks) creates no test; Windows line endings are fine', () => {
    const text = [
      ev({ Action: 'output', Package: 'a', Test: 'BenchmarkX', Output: 'BenchmarkX-8  100  10 ns/op\n' }),
      ev({ Action: 'run', Package: 'a', Test: 'TestY' }),
      ev({ Action: 'pass', Package: 'a', Test: 'TestY' }),
    ].join('\r\n');
    expect(parseGoTestJson(text, 'go').map((r) => r.id)).toEqual(['go::a::TestY']);
  });

  it('reads compiler output alone as a build failure; rejects text without a single event', () => {
    expect(idsAndStatuses(parseGoTestJson('# x/broken\nbroken.go:3: syntax error\nFAIL\n', 'go'))).toEqual([
      ['go::x/broken::[build failed]', 'failed'],
    ]);
    expect(() => parseGoTestJson('panic: something\n', 'go')).toThrow(/no go test -json events found/);
    expect(() => parseGoTestJson('{"not":"an event"}\n', 'go')).toThrow(ResultParseError);
    expect(() => parseGoTestJson('', 'go')).toThrow('go test -json result file is empty');
  });
});
