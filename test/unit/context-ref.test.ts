import { describe, expect, it } from 'vitest';
import { formatContextRef, parseContextRef } from '../../src/core/context-ref.ts';

describe('context repository references', () => {
  it.each([
    ['acme/docs', { owner: 'acme', repo: 'docs' }],
    ['acme/docs@v2.1.0', { owner: 'acme', repo: 'docs', ref: 'v2.1.0' }],
    ['Acme/Docs.js@feature/x', { owner: 'Acme', repo: 'Docs.js', ref: 'feature/x' }],
    ['acme/docs@0123456789abcdef', { owner: 'acme', repo: 'docs', ref: '0123456789abcdef' }],
  ])('reads %s', (text, want) => {
    expect(parseContextRef(text)).toEqual(want);
  });

  it.each([
    'acme',
    'acme/',
    'a/b/c',
    'acme/..',
    './docs',
    'acme/docs@',
    'acme/docs@--upload-pack=x',
    'acme/docs@-x',
    'ac me/docs',
  ])('refuses %j', (text) => {
    expect(parseContextRef(text)).toBeUndefined();
  });

  it('round-trips what the App writes for the Action', () => {
    for (const c of [{ repo: 'acme/docs', ref: 'v2' }, { repo: 'acme/ops' }]) {
      const parsed = parseContextRef(formatContextRef(c))!;
      expect(`${parsed.owner}/${parsed.repo}`).toBe(c.repo);
      expect(parsed.ref).toBe(c.ref);
    }
  });
});
