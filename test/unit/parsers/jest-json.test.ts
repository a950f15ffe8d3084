import { describe, expect, it } from 'vitest';
import {
  FILE_LOAD_FAILURE,
  parseJestJson,
  parseVitestJson,
  relativeFiles,
} from '../../../src/engine/results/parsers/jest-json.ts';
import { ResultParseError } from '../../../src/engine/results/parsers/parser.ts';
import { byId, idsAndStatuses, resultFile } from '../../helpers/result-fixtures.ts';

describe('parseJestJson (jest --json)', () => {
  const results = parseJestJson(resultFile('jest.json'), 'api');
  const map = byId(results);

  it('classname is the workspace-relative file and describe path; statuses map to ours', () => {
    expect(idsAndStatuses(results)).toEqual([
      ['api::api/test/calc.test.js > Calculator::adds', 'passed'],
      ['api::api/test/calc.test.js > Calculator::divides by zero', 'failed'],
      ['api::api/test/calc.test.js > Calculator::skipped one', 'skipped'],
      ['api::api/test/calc.test.js > Calculator::todo one', 'skipped'],
      ['api::api/test/calc.test.js > Calculator > nested group::deep pass', 'passed'],
      ['api::api/test/calc.test.js > Calculator > nested group::deep fail', 'failed'],
      ['api::api/test/calc.test.js > Calculator::adds #2', 'passed'],
      ['api::api/test/calc.test.js > Calculator::flaky passes on retry', 'passed'],
      ['api::api/test/calc.test.js::top level', 'passed'],
      [`api::api/test/parser.test.js::${FILE_LOAD_FAILURE}`, 'failed'],
      ['api::web/src/util/format.test.ts > format::pads', 'passed'],
      ['api::web/src/util/format.test.ts > format::disabled one', 'skipped'],
    ]);
  });

  it('strips terminal colours from messages; a retried test that passed carries no message', () => {
    expect(map.get('api::api/test/calc.test.js > Calculator::divides by zero')?.message).toMatch(
      /^expect\(received\)\.toThrow\(expected\)\n\nExpected substring: "Division by zero"/,
    );
    expect(
      map.get('api::api/test/calc.test.js > Calculator::flaky passes on retry')?.message,
    ).toBeUndefined();
    expect(map.get(`api::api/test/parser.test.js::${FILE_LOAD_FAILURE}`)?.message).toMatch(
      /^● Test suite failed to run\n\n {4}Cannot find module '..\/src\/parser'/,
    );
  });

  it('unknown statuses become errors rather than passes', () => {
    const text = JSON.stringify({
      testResults: [
        { name: 'a.test.js', assertionResults: [{ ancestorTitles: [], title: 't', status: 'weird' }] },
      ],
    });
    expect(parseJestJson(text, 'g')).toEqual([
      { id: 'g::a.test.js::t', status: 'error', message: 'unknown test status "weird"' },
    ]);
  });

  it('rejects text that is not JSON or not a jest report, and empty files', () => {
    expect(() => parseJestJson('FAIL test/a.test.js', 'g')).toThrow(/^jest --json result is not JSON: /);
    // A file cut short names the path it stopped at.
    expect(() =>
      parseJestJson('{"testResults":[{"name":"a.js","assertionResults":[{"title":"x"},{"title": ]}', 'g'),
    ).toThrow(/^jest --json result is not JSON at testResults\[0\]\.assertionResults\[1\]\.title: /);
    expect(() => parseJestJson('{"testResults":[{"name":1}]}', 'g')).toThrow(
      /^jest --json result has an unexpected shape at testResults\[0\]\.name: /,
    );
    expect(() => parseJestJson('{"numTotalTests":0}', 'g')).toThrow(ResultParseError);
    expect(() => parseJestJson('', 'g')).toThrow(ResultParseError);
  });
});

describe('parseJestJson: titles that are not strings', () => {
  it("reads jest 22's array titles (it([2010, 1, 14])) as jest names them", () => {
    const text = JSON.stringify({
      testResults: [
        {
          name: '/tandem/workspace/dayjs/test/parse.test.js',
          assertionResults: [
            { ancestorTitles: ['parse', 7], title: [2010, 1, 14], status: 'passed' },
            { ancestorTitles: [], title: 42, status: 'failed', failureMessages: ['boom'] },
          ],
        },
      ],
    });
    expect(idsAndStatuses(parseJestJson(text, 'g'))).toEqual([
      ['g::dayjs/test/parse.test.js > parse > 7::2010,1,14', 'passed'],
      ['g::dayjs/test/parse.test.js::42', 'failed'],
    ]);
  });
});

describe('parseVitestJson (vitest --reporter=json, real output)', () => {
  const results = parseVitestJson(resultFile('vitest.json'), 'ui');

  it("reads vitest's report: nesting, todo/skip, duplicates, retries and a file that failed to load", () => {
    expect(idsAndStatuses(results)).toEqual([
      ['ui::calc.test.mjs > Calculator::adds', 'passed'],
      ['ui::calc.test.mjs > Calculator::divides by zero', 'failed'],
      ['ui::calc.test.mjs > Calculator::skipped one', 'skipped'],
      ['ui::calc.test.mjs > Calculator::todo one', 'skipped'],
      ['ui::calc.test.mjs > Calculator > nested group::deep pass', 'passed'],
      ['ui::calc.test.mjs > Calculator > nested group::deep fail', 'failed'],
      ['ui::calc.test.mjs > Calculator::adds #2', 'passed'],
      ['ui::calc.test.mjs > Calculator::flaky passes on retry', 'passed'],
      ['ui::calc.test.mjs > Calculator::always fails with retry', 'failed'],
      ['ui::calc.test.mjs::top level', 'passed'],
      [`ui::nested/broken.test.mjs::${FILE_LOAD_FAILURE}`, 'failed'],
    ]);
    const retried = results.find((r) => r.id === 'ui::calc.test.mjs > Calculator::always fails with retry');
    // Both attempts failed with the same error: reported once.
    expect(retried?.message?.match(/Error: still broken/g)).toHaveLength(1);
    expect(results.at(-1)?.message).toMatch(/^Cannot find module '..\/..\/src\/does-not-exist.mjs'/);
  });

  it('gives the same ids on another machine (workspace root or another checkout folder)', () => {
    const text = resultFile('vitest.json');
    const inSandbox = parseVitestJson(text.replaceAll('/tmp/pfx/vt/', '/tandem/workspace/ui/'), 'ui');
    expect(inSandbox[0]?.id).toBe('ui::ui/test/calc.test.mjs > Calculator::adds');
    const elsewhere = parseVitestJson(text.replaceAll('/tmp/pfx/vt/', '/home/dev/src/ui/'), 'ui');
    expect(elsewhere.map((r) => r.id)).toEqual(results.map((r) => r.id));
  });

  it('an empty run is zero tests', () => {
    expect(parseVitestJson(resultFile('vitest-empty.json'), 'ui')).toEqual([]);
  });
});

describe('relativeFiles', () => {
  it('cuts at the workspace root, else at the folder all files share', () => {
    const rel = relativeFiles([
      '/tandem/workspace/api/a.test.ts',
      '/x/y/test/b.test.ts',
      '/x/y/src/c.test.ts',
    ]);
    expect(rel('/tandem/workspace/api/a.test.ts')).toBe('api/a.test.ts');
    expect(rel('/x/y/test/b.test.ts')).toBe('test/b.test.ts');
    expect(rel('/x/y/src/c.test.ts')).toBe('src/c.test.ts');
  });

  it('leaves relative paths alone and normalises Windows separators', () => {
    const rel = relativeFiles(['./test/a.test.ts', 'C:\\work\\repo\\test\\b.test.ts']);
    expect(rel('./test/a.test.ts')).toBe('test/a.test.ts');
    expect(rel('C:\\work\\repo\\test\\b.test.ts')).toBe('C:/work/repo/test/b.test.ts');
  });
});
