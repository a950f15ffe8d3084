/**
 * Which base states may share prepared dependencies, on real git: a commit on a trusted branch
 * (the default branch unless the suite names others), never one only a pushed branch has.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MirrorCache } from '../../src/engine/git/git-mirror.ts';
import { isTrustedBase } from '../../src/engine/prepare/base-trust.ts';
import { commitOn, createRepo, makeTempDir, removeTempDir } from '../helpers/git-fixtures.ts';

let root: string;
let mirror: string;
const sha: Record<string, string> = {};

beforeAll(async () => {
  root = await makeTempDir('tandem-base-trust-');
  const repo = await createRepo(root, 'app', { 'package.json': '{}\n' });
  sha.first = repo.sha;
  sha.main = await commitOn(repo, 'main', { 'a.txt': 'a\n' });
  sha.evil = await commitOn(repo, 'evil', { 'install.sh': 'echo poison\n' }, 'pushed', { from: sha.main });
  sha.release = await commitOn(repo, 'release', { 'r.txt': 'r\n' }, 'release', { from: sha.first });
  mirror = await new MirrorCache(root).ensure(repo.url);
});

afterAll(() => removeTempDir(root));

describe('trusted base states', () => {
  it('trusts commits on the default branch, its history included', async () => {
    expect(await isTrustedBase(mirror, sha.main!, undefined)).toBe(true);
    expect(await isTrustedBase(mirror, sha.first!, undefined)).toBe(true);
  });

  it('does not trust a commit only a pushed branch has, whatever the case calls it', async () => {
    expect(await isTrustedBase(mirror, sha.evil!, undefined)).toBe(false);
    expect(await isTrustedBase(mirror, sha.release!, undefined)).toBe(false);
  });

  it('trusts the branches the suite names instead of the default one; [] trusts none', async () => {
    expect(await isTrustedBase(mirror, sha.release!, ['release'])).toBe(true);
    expect(await isTrustedBase(mirror, sha.main!, ['release'])).toBe(false);
    expect(await isTrustedBase(mirror, sha.main!, [])).toBe(false);
    expect(await isTrustedBase(mirror, sha.main!, ['no-such-branch'])).toBe(false);
  });
});
