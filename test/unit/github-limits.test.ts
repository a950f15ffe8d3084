import { describe, expect, it } from 'vitest';
import {
  CHECK_RUN_OUTPUT_LIMIT,
  COMMENT_LIMIT,
  fitsLimit,
  fitText,
  type TextLimit,
  textSize,
} from '../../src/core/github-limits.ts';

describe('GitHub limits', () => {
  it('count comments in characters and check-run output in bytes', () => {
    expect(COMMENT_LIMIT).toEqual({ max: 65_536, unit: 'chars' });
    expect(CHECK_RUN_OUTPUT_LIMIT).toEqual({ max: 65_535, unit: 'bytes' });
    expect(textSize('é✓😀', 'chars')).toBe(4);
    expect(textSize('é✓😀', 'bytes')).toBe(2 + 3 + 4);
  });

  it('leave fitting text alone', () => {
    expect(fitText('short', CHECK_RUN_OUTPUT_LIMIT, ' [cut]')).toBe('short');
    const exact = 'x'.repeat(COMMENT_LIMIT.max);
    expect(fitText(exact, COMMENT_LIMIT, ' [cut]')).toBe(exact);
  });

  it('cut multi-byte text under the byte limit, notice included', () => {
    const text = '✓'.repeat(30_000); // 90,000 bytes, 30,000 characters
    expect(fitsLimit(text, CHECK_RUN_OUTPUT_LIMIT)).toBe(false);
    const fitted = fitText(text, CHECK_RUN_OUTPUT_LIMIT, '\n… trimmed');
    expect(textSize(fitted, 'bytes')).toBeLessThanOrEqual(CHECK_RUN_OUTPUT_LIMIT.max);
    expect(fitted.endsWith('\n… trimmed')).toBe(true);
    expect(fitted.replace('\n… trimmed', '')).toMatch(/^✓+$/);
  });

  it.each([
    [{ max: 7, unit: 'chars' }, 'ab😀cdef', '!', 'ab😀cd!'],
    [{ max: 4, unit: 'chars' }, 'ab😀cdef', '!', 'ab!'],
    [{ max: 5, unit: 'bytes' }, 'ab😀cdef', '!', 'ab!'],
    [{ max: 7, unit: 'bytes' }, 'ab😀cdef', '!', 'ab😀!'],
    [{ max: 8, unit: 'bytes' }, 'ab😀cdef', '!', 'ab😀c!'],
    [{ max: 2, unit: 'chars' }, 'abcdef', 'notice', 'no'],
  ] as Array<[TextLimit, string, string, string]>)(
    'never splits a character: %j',
    (limit, text, notice, want) => {
      const fitted = fitText(text, limit, notice);
      expect(fitted).toBe(want);
      expect(textSize(fitted, limit.unit)).toBeLessThanOrEqual(limit.max);
    },
  );
});
