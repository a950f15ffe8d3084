import { describe, expect, it } from 'vitest';
import { LeakFilter, NO_LEAK_FILTER } from '../../src/core/leak-filter.ts';

const filter = new LeakFilter([
  { path: 'hidden/api.test.js', content: "});\n  expect(total(17, 25)).toBe('forty-two');\n" },
  { path: '/srv/suites/shop/hidden', content: '' },
  { path: 'hidden', content: '' },
]);

describe('LeakFilter', () => {
  it('refuses hidden lines verbatim, inside other text, and hex-encoded', () => {
    expect(filter.text("> 12 |   expect(total(17, 25)).toBe('forty-two');")).toBe('> 12 |   [hidden]');
    const hex = Buffer.from("expect(total(17, 25)).toBe('forty-two');").toString('hex');
    expect(filter.text(`<x${hex}>`)).toBe('<x[hidden]>');
  });

  it('refuses hidden paths and file names, but not folder names or short common lines', () => {
    expect(filter.text('at hidden/api.test.js:3')).toBe('at [hidden]:3');
    expect(filter.text('in api.test.js')).toBe('in [hidden]');
    expect(filter.text('/srv/suites/shop/hidden/x')).toBe('[hidden]/x');
    expect(filter.text('the hidden tests failed });')).toBe('the hidden tests failed });');
  });

  it('filters every string of a report-like value and keeps its shape', () => {
    const v = { a: ['ok', "expect(total(17, 25)).toBe('forty-two');"], n: 3, b: { c: 'api.test.js' } };
    expect(filter.value(v)).toEqual({ a: ['ok', '[hidden]'], n: 3, b: { c: '[hidden]' } });
    expect(NO_LEAK_FILTER.value(v)).toEqual(v);
  });
});
