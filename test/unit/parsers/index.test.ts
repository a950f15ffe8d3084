import { describe, expect, it } from 'vitest';
import { resultFormatSchema } from '../../../src/core/suite.schema.ts';
import { parseResults, parsers, ResultParseError } from '../../../src/engine/results/parsers/index.ts';
import { cleanMessage, MESSAGE_CAP } from '../../../src/engine/results/parsers/result-builder.ts';
import { resultFile } from '../../helpers/result-fixtures.ts';

describe('parseResults', () => {
  it('has a parser for every suite result format', () => {
    expect(Object.keys(parsers).sort()).toEqual([...resultFormatSchema.options].sort());
  });

  it('dispatches on the format and returns results that are stable across calls', () => {
    const cases = [
      ['junit', 'pytest-junit.xml'],
      ['tap', 'node-tap.tap'],
      ['go-test-json', 'go-test.jsonl'],
      ['jest-json', 'jest.json'],
      ['vitest-json', 'vitest.json'],
    ] as const;
    for (const [format, file] of cases) {
      const text = resultFile(file);
      const first = parseResults(format, text, 'grp');
      expect(first.length).toBeGreaterThan(0);
      expect(first.every((r) => r.id.startsWith('grp::'))).toBe(true);
      expect(new Set(first.map((r) => r.id)).size).toBe(first.length);
      expect(parseResults(format, text, 'grp')).toEqual(first);
    }
  });

  it("every parser throws ResultParseError on another format's file", () => {
    expect(() => parseResults('junit', resultFile('jest.json'), 'g')).toThrow(ResultParseError);
    expect(() => parseResults('tap', resultFile('jest.json'), 'g')).toThrow(ResultParseError);
    expect(() => parseResults('go-test-json', resultFile('pytest-junit.xml'), 'g')).toThrow(ResultParseError);
    expect(() => parseResults('jest-json', resultFile('go-test.jsonl'), 'g')).toThrow(ResultParseError);
    expect(() => parseResults('vitest-json', resultFile('node-tap.tap'), 'g')).toThrow(ResultParseError);
  });

  it('reads files that start with a byte-order mark', () => {
    const bom = '\uFEFF';
    expect(parseResults('junit', `${bom}${resultFile('go-junit-report-v1.xml')}`, 'g')).toHaveLength(3);
    expect(parseResults('jest-json', `${bom}${resultFile('jest.json')}`, 'g')).toHaveLength(12);
    expect(() => parseResults('tap', `${bom}  \n`, 'g')).toThrow('TAP result file is empty');
  });
});

describe('cleanMessage', () => {
  it('strips colours, trims, drops repeats and caps without splitting a surrogate pair', () => {
    expect(cleanMessage('\u001b[31m boom \u001b[39m', undefined, 'boom', '', 'detail')).toBe('boom\ndetail');
    expect(cleanMessage(undefined, '  ')).toBeUndefined();
    const capped = cleanMessage(`${'x'.repeat(MESSAGE_CAP - 2)}😀tail`) ?? '';
    expect(capped.length).toBeLessThanOrEqual(MESSAGE_CAP);
    expect(capped.endsWith('x…')).toBe(true);
  });
});
