import { describe, expect, it } from 'vitest';
import {
  formatPullRef,
  parsePullKey,
  parsePullRef,
  pullKey,
  repoOfPullKey,
  samePull,
} from '../../src/core/pull-ref.ts';

const self = { owner: 'acme', repo: 'api' };
const ref = (owner: string, repo: string, number: number) => ({ owner, repo, number });

describe('parsePullRef', () => {
  it.each([
    ['acme/web#3', ref('acme', 'web', 3)],
    ['  Acme/Web.js#12 ', ref('Acme', 'Web.js', 12)],
    ['https://github.com/acme/web/pull/3', ref('acme', 'web', 3)],
    ['https://github.com/acme/web/pull/3/', ref('acme', 'web', 3)],
    ['https://github.com/acme/web/pulls/3', ref('acme', 'web', 3)],
    ['https://github.com/acme/web/pull/3/files', ref('acme', 'web', 3)],
    ['https://github.com/acme/web/pull/3/commits/abc123', ref('acme', 'web', 3)],
    ['https://github.com/acme/web/pull/3#issuecomment-1', ref('acme', 'web', 3)],
    ['https://github.com/acme/web/pull/3?w=1', ref('acme', 'web', 3)],
    ['HTTPS://GITHUB.COM/acme/web/pull/3', ref('acme', 'web', 3)],
    ['https://ghe.acme.io/acme/schema/pull/4', ref('acme', 'schema', 4)],
    ['http://127.0.0.1:9/acme/web/pull/5', ref('acme', 'web', 5)],
    ['<https://github.com/acme/web/pull/6>', ref('acme', 'web', 6)],
    ['#9', ref('acme', 'api', 9)],
  ])('reads %s', (text, want) => {
    expect(parsePullRef(text, self)).toEqual(want);
  });

  it.each([
    'acme/web',
    'acme/web#0',
    'acme/web#03',
    'acme/web#-1',
    'acme/web#1x',
    'acme/web#99999999999',
    'acme/../web#1',
    'acme/..#1',
    './web#1',
    'a/b/c#1',
    '/web#1',
    'acme/#1',
    'https://github.com/acme/web/issues/5',
    'https://github.com/acme/web/pull/',
    'https://github.com/acme/web/pull/x',
    'https://github.com/acme/pull/5',
    'ftp://github.com/acme/web/pull/5',
    'github.com/acme/web/pull/5',
    'https://github.com/acme/we%20b/pull/5',
    'soon',
    '',
  ])('refuses %j', (text) => {
    expect(parsePullRef(text, self)).toBeUndefined();
  });

  it('reads #N only relative to a repository', () => {
    expect(parsePullRef('#9')).toBeUndefined();
    expect(parsePullRef('acme/web#9')).toEqual(ref('acme', 'web', 9));
  });
});

describe('keys and labels', () => {
  it('keys without case, labels as written', () => {
    const r = ref('Acme', 'API', 3);
    expect(pullKey(r)).toBe('acme/api#3');
    expect(formatPullRef(r)).toBe('Acme/API#3');
    expect(repoOfPullKey(pullKey(r))).toBe('acme/api');
    expect(samePull(r, ref('acme', 'api', 3))).toBe(true);
    expect(samePull(r, ref('acme', 'api', 4))).toBe(false);
  });

  it('round-trips a key and refuses anything else', () => {
    expect(parsePullKey('acme/api#3')).toEqual(ref('acme', 'api', 3));
    expect(() => parsePullKey('acme/api')).toThrow(/not a pull request key/);
    expect(() => parsePullKey('#3')).toThrow(/not a pull request key/);
  });
});
