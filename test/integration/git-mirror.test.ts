import { mkdir, readdir, stat, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InfraError } from '../../src/core/errors.ts';
import { gitOut } from '../../src/engine/git/git.ts';
import { MirrorCache } from '../../src/engine/git/git-mirror.ts';
import {
  commitOn,
  createRepo,
  type FixtureRepo,
  makeTempDir,
  pushRef,
  removeTempDir,
  revParse,
  tag,
} from '../helpers/git-fixtures.ts';

let root: string;
let repo: FixtureRepo;
let first: string;

beforeAll(async () => {
  root = await makeTempDir();
  const created = await createRepo(root, 'api', { 'README.md': 'api\n', 'src/a.txt': 'one\n' });
  repo = created;
  first = created.sha;
});
afterAll(() => removeTempDir(root));

async function expectInfra(p: Promise<unknown>, kind: string): Promise<InfraError> {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(InfraError);
  expect((e as InfraError).kind).toBe(kind);
  return e as InfraError;
}

describe('MirrorCache', () => {
  it('clones a mirror once and reuses it across instances', async () => {
    const cacheDir = path.join(root, 'cache-reuse');
    const a = new MirrorCache(cacheDir);
    const mirror = await a.ensure(repo.url);
    expect(path.basename(mirror)).toMatch(/^[0-9a-f]{16}-api\.git$/);
    expect(path.dirname(mirror)).toBe(path.join(cacheDir, 'mirrors'));
    expect(await gitOut(['config', '--get', 'remote.origin.mirror'], { cwd: mirror })).toBe('true');
    expect(await a.ensure(repo.url)).toBe(mirror);
    expect(a.stats.clones).toBe(1);

    // A marker inside the mirror survives: the next instance neither re-clones nor replaces it.
    await writeFile(path.join(mirror, 'tandem-marker'), 'x');
    const b = new MirrorCache(cacheDir);
    expect(await b.ensure(repo.url)).toBe(mirror);
    expect(b.stats).toEqual({ clones: 0, fetches: 0, shaFetches: 0 });
    expect(await readdir(mirror)).toContain('tandem-marker');
    // A pinned SHA already present costs no network at all.
    expect(await b.resolve(repo.url, first)).toBe(first);
    expect(b.stats).toEqual({ clones: 0, fetches: 0, shaFetches: 0 });
  });

  it('sees a branch advance upstream only from a new instance, fetching once per instance', async () => {
    const cacheDir = path.join(root, 'cache-advance');
    const a = new MirrorCache(cacheDir);
    const before = await a.resolve(repo.url, 'main');
    const advanced = await commitOn(repo, 'main', { 'src/a.txt': 'two\n' }, 'advance main');
    // Same instance: the branch was fetched (by the clone) already, so it is not fetched again.
    expect(await a.resolve(repo.url, 'main')).toBe(before);
    expect(a.stats.fetches).toBe(0);

    const b = new MirrorCache(cacheDir);
    const [x, y, z] = await Promise.all([
      b.resolve(repo.url, 'main'),
      b.resolve(repo.url, 'main'),
      b.resolve(repo.url, 'refs/heads/main'),
    ]);
    expect([x, y, z]).toEqual([advanced, advanced, advanced]);
    expect(b.stats).toEqual({ clones: 0, fetches: 1, shaFetches: 0 });
    // The old SHA stays pinnable.
    expect(await b.resolve(repo.url, before)).toBe(before);
    expect(b.stats.fetches).toBe(1);
  });

  it('resolves tags, pull refs, abbreviated and upper-case SHAs', async () => {
    const feature = await commitOn(repo, 'feature/x', { 'src/b.txt': 'b\n' }, 'feature', { from: first });
    await tag(repo, 'v1.0.0', first);
    await pushRef(repo, feature, 'refs/pull/7/head');
    const cache = new MirrorCache(path.join(root, 'cache-refs'));
    expect(await cache.resolve(repo.url, 'v1.0.0')).toBe(first);
    expect(await cache.resolve(repo.url, 'feature/x')).toBe(feature);
    expect(await cache.resolve(repo.url, 'refs/pull/7/head')).toBe(feature);
    expect(await cache.resolve(repo.url, feature.slice(0, 10))).toBe(feature);
    expect(await cache.resolve(repo.url, feature.toUpperCase())).toBe(feature);
    expect(cache.stats).toEqual({ clones: 1, fetches: 0, shaFetches: 0 });
  });

  it('fetches a SHA that is not in the mirror yet, without a full refresh', async () => {
    const cacheDir = path.join(root, 'cache-sha');
    await new MirrorCache(cacheDir).ensure(repo.url);
    const later = await commitOn(repo, 'later', { 'c.txt': 'c\n' }, 'later', { from: first });
    const cache = new MirrorCache(cacheDir);
    expect(await cache.resolve(repo.url, later)).toBe(later);
    expect(cache.stats).toEqual({ clones: 0, fetches: 0, shaFetches: 1 });
  });

  it('accepts a plain local path as the URL', async () => {
    const cache = new MirrorCache(path.join(root, 'cache-path'));
    expect(await cache.resolve(repo.bare, first)).toBe(first);
    const mirror = await cache.ensure(`${repo.bare}/`);
    expect(await gitOut(['config', '--get', 'remote.origin.url'], { cwd: mirror })).toBe(repo.bare);
    expect(cache.stats.clones).toBe(1);
  });

  it('names the URL and the ref when a ref is unknown', async () => {
    const cache = new MirrorCache(path.join(root, 'cache-unknown'));
    const e = await expectInfra(cache.resolve(repo.url, 'no-such-branch'), 'unknown-ref');
    expect(e.message).toContain('no-such-branch');
    expect(e.message).toContain(repo.url);
    const missingSha = 'deadbeef'.repeat(5);
    const e2 = await expectInfra(cache.resolve(repo.url, missingSha), 'unknown-ref');
    expect(e2.message).toContain(missingSha);
    await expectInfra(cache.resolve(repo.url, '--upload-pack=touch /tmp/x'), 'unknown-ref');
  });

  it('reports a missing repository as a fetch error with git’s reason', async () => {
    const cache = new MirrorCache(path.join(root, 'cache-missing'));
    const url = path.join(root, 'does-not-exist.git');
    const e = await expectInfra(cache.ensure(url), 'fetch');
    expect(e.message).toContain(url);
    expect(e.message).toMatch(/does not exist|not a git repository|not found/i);
    // Nothing half-made is left behind, and a later call tries again.
    expect(await readdir(path.join(root, 'cache-missing', 'mirrors'))).toEqual([]);
    await expectInfra(cache.ensure(url), 'fetch');
  });

  it('reports an unreachable http URL as a fetch error without leaking credentials', async () => {
    const cache = new MirrorCache(path.join(root, 'cache-http'));
    const e = await expectInfra(
      cache.ensure('http://x-access-token:s3cret@127.0.0.1:9/acme/api.git'),
      'fetch',
    );
    expect(e.message).toContain('127.0.0.1:9/acme/api.git');
    expect(e.message).not.toContain('s3cret');
  });

  it('clones once when several instances race for the same mirror', async () => {
    const cacheDir = path.join(root, 'cache-race');
    const caches = [0, 1, 2, 3].map(() => new MirrorCache(cacheDir));
    const mirrors = await Promise.all(caches.map((c) => c.ensure(repo.url)));
    expect(new Set(mirrors).size).toBe(1);
    expect(caches.reduce((n, c) => n + c.stats.clones, 0)).toBe(1);
    expect((await readdir(path.join(cacheDir, 'mirrors'))).filter((f) => f.includes('.lock'))).toEqual([]);
  });

  it('breaks an abandoned lock', async () => {
    const cacheDir = path.join(root, 'cache-stale');
    const cache = new MirrorCache(cacheDir, { staleLockMs: 60_000, lockTimeoutMs: 30_000 });
    const lock = `${cache.mirrorPath(repo.url)}.lock`;
    await mkdir(lock, { recursive: true });
    const old = new Date(Date.now() - 10 * 60_000);
    await utimes(lock, old, old);
    expect(await cache.resolve(repo.url, 'main')).toBe(await revParse(repo, 'main'));
    await expect(stat(lock)).rejects.toThrow();
  });
});
