import { describe, expect, it } from 'vitest';
import {
  cloneUrlWithToken,
  scrubCredentials,
  scrubCredentialsDeep,
  urlWithoutCredentials,
} from '../../src/core/credentials.ts';

describe('cloneUrlWithToken', () => {
  it('puts the token in http(s) URLs as x-access-token', () => {
    expect(cloneUrlWithToken('https://github.com/acme/api.git', 'tok123')).toBe(
      'https://x-access-token:tok123@github.com/acme/api.git',
    );
    expect(cloneUrlWithToken('http://127.0.0.1:9/acme/api.git', 'tok123')).toBe(
      'http://x-access-token:tok123@127.0.0.1:9/acme/api.git',
    );
  });

  it('leaves other schemes, bad URLs and a missing token alone', () => {
    expect(cloneUrlWithToken('git@github.com:acme/api.git', 'tok123')).toBe('git@github.com:acme/api.git');
    expect(cloneUrlWithToken('file:///srv/acme/api', 'tok123')).toBe('file:///srv/acme/api');
    expect(cloneUrlWithToken('https://github.com/acme/api.git', undefined)).toBe(
      'https://github.com/acme/api.git',
    );
  });
});

describe('scrubCredentials', () => {
  it.each([
    [
      'fatal: could not read https://x-access-token:ghs_abc@github.com/a/b.git',
      'fatal: could not read https://***@github.com/a/b.git',
    ],
    [
      'git clone HTTP://user:pw@host/x and ssh://git@host/y',
      'git clone HTTP://***@host/x and ssh://***@host/y',
    ],
    ['token ghp_AbCdEf0123456789 leaked', 'token ghp_*** leaked'],
    ['fine-grained github_pat_11ABCDEFG0123456789_xyz', 'fine-grained github_pat_***'],
    ['ghs_ALongInstallationToken0123 in text', 'ghs_*** in text'],
    ['mail me: user@example.com', 'mail me: user@example.com'],
    ['https://github.com/acme/api/pull/3', 'https://github.com/acme/api/pull/3'],
  ])('%s', (text, want) => {
    expect(scrubCredentials(text)).toBe(want);
  });

  it('replaces the given secrets wherever they stand, but not very short ones', () => {
    expect(scrubCredentials('auth s3cret-value ok s3cret-value', ['s3cret-value'])).toBe('auth *** ok ***');
    expect(scrubCredentials('a b c', ['a'])).toBe('a b c');
  });

  it('a URL without credentials at all', () => {
    expect(urlWithoutCredentials('https://x-access-token:t@github.com/a/b.git')).toBe(
      'https://github.com/a/b.git',
    );
  });

  it('cleans every string of a nested value and keeps its shape', () => {
    const report = {
      n: 1,
      ok: true,
      none: null,
      targets: [{ url: 'https://x-access-token:tok1234@github.com/a/b.git' }],
      message: 'used tok1234',
    };
    expect(scrubCredentialsDeep(report, ['tok1234'])).toEqual({
      n: 1,
      ok: true,
      none: null,
      targets: [{ url: 'https://***@github.com/a/b.git' }],
      message: 'used ***',
    });
  });
});
