import { describe, expect, it } from 'vitest';
import {
  isRepoPart,
  loginKey,
  RepoMap,
  RepoSet,
  repoFullName,
  repoKey,
  sameRepo,
  splitRepo,
} from '../../src/core/repo-name.ts';

describe('repository names', () => {
  it('compare without case, as strings or parts', () => {
    expect(sameRepo('Acme/API', 'acme/api')).toBe(true);
    expect(sameRepo({ owner: 'ACME', repo: 'api' }, 'acme/API')).toBe(true);
    expect(sameRepo('acme/api', 'acme/web')).toBe(false);
    expect(repoKey({ owner: 'Acme', repo: 'Web' })).toBe('acme/web');
    expect(repoFullName({ owner: 'Acme', repo: 'Web' })).toBe('Acme/Web');
  });

  it('logins compare without case too', () => {
    expect(loginKey('Alice')).toBe(loginKey('aLICE'));
    expect(loginKey('alice')).not.toBe(loginKey('bob'));
  });

  it('split only owner/name', () => {
    expect(splitRepo('acme/api')).toEqual({ owner: 'acme', repo: 'api' });
    for (const bad of ['acme', 'acme/', '/api', 'a/b/c', '', 'acme/..', './api', 'ac me/api', 'acme/a@b'])
      expect(splitRepo(bad)).toBeUndefined();
    expect(isRepoPart('Web.js_2-x')).toBe(true);
  });

  it('RepoSet answers without case and keeps the first spelling', () => {
    const set = new RepoSet(['Acme/API', 'acme/api', { owner: 'acme', repo: 'web' }]);
    expect(set.size).toBe(2);
    expect(set.has('ACME/api')).toBe(true);
    expect(set.has('acme/docs')).toBe(false);
    expect(set.get('acme/api')).toBe('Acme/API');
    expect([...set]).toEqual(['Acme/API', 'acme/web']);
  });

  it('RepoMap keys without case', () => {
    const map = new RepoMap<number>().set('Acme/API', 1);
    expect(map.get('acme/api')).toBe(1);
    expect(map.has({ owner: 'ACME', repo: 'Api' })).toBe(true);
    expect(map.get('acme/web')).toBeUndefined();
  });
});
