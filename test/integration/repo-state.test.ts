import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InfraError } from '../../src/core/errors.ts';
import { gitOut } from '../../src/engine/git/git.ts';
import { MirrorCache } from '../../src/engine/git/git-mirror.ts';
import {
  headFromMerge,
  headFromPatch,
  materializeCheckout,
  type RepoState,
} from '../../src/engine/git/repo-state.ts';
import {
  commitOn,
  createRepo,
  diffBetween,
  type FixtureRepo,
  makeTempDir,
  removeTempDir,
  treeOf,
} from '../helpers/git-fixtures.ts';

let root: string;
let repo: FixtureRepo;
let mirror: string;
let base: string;
let head: string; // feature: b.txt changed
let mainLater: string; // main after the feature branched: c.txt added
let conflicting: string; // a.txt changed differently than on main
let n = 0;
const dirFor = (label: string) => path.join(root, 'states', `${label}-${n++}`);

beforeAll(async () => {
  root = await makeTempDir();
  const created = await createRepo(root, 'web', { 'a.txt': 'a\n', 'b.txt': 'b\n', 'dist/.gitignore': '*\n' });
  repo = created;
  base = created.sha;
  head = await commitOn(repo, 'feature', { 'b.txt': 'b fixed\n' }, 'fix b', { from: base });
  mainLater = await commitOn(repo, 'main', { 'c.txt': 'c\n', 'a.txt': 'a on main\n' }, 'main moves', {
    from: base,
  });
  conflicting = await commitOn(repo, 'clash', { 'a.txt': 'a on clash\n' }, 'clash', { from: base });
  mirror = await new MirrorCache(path.join(root, 'cache')).ensure(repo.url);
});
afterAll(() => removeTempDir(root));

const read = (s: RepoState, f: string) => readFile(path.join(s.dir, f), 'utf8');

describe('repository states', () => {
  it('checks out a commit as a standalone repository whose origin is the original URL', async () => {
    const s = await materializeCheckout(mirror, base, dirFor('base'));
    expect(s.commitSha).toBe(base);
    expect(s.treeSha).toBe(await treeOf(repo, base));
    expect(await read(s, 'a.txt')).toBe('a\n');
    expect(await gitOut(['config', '--get', 'remote.origin.url'], { cwd: s.dir })).toBe(repo.url);
    expect(await gitOut(['status', '--porcelain'], { cwd: s.dir })).toBe('');
    // No alternates: the folder must work where the mirror's path does not exist.
    await expect(stat(path.join(s.dir, '.git/objects/info/alternates'))).rejects.toThrow();
    // Same filesystem: objects are hardlinked from the mirror, not copied.
    const objects = await readdir(path.join(s.dir, '.git/objects'), { recursive: true, withFileTypes: true });
    const file = objects.find((d) => d.isFile() && /\.pack$|^[0-9a-f]{38}$/.test(d.name));
    expect(file).toBeDefined();
    expect((await stat(path.join(file!.parentPath, file!.name))).nlink).toBeGreaterThan(1);
    // Re-materializing into the same folder replaces it.
    const again = await materializeCheckout(mirror, head, s.dir);
    expect(again.commitSha).toBe(head);
    expect(await read(again, 'b.txt')).toBe('b fixed\n');
  });

  it('merges the head onto a moved base, deterministically, like GitHub’s merge ref', async () => {
    const m1 = await headFromMerge(mirror, mainLater, head, dirFor('merge'), { target: 'acme/web' });
    expect(await read(m1, 'a.txt')).toBe('a on main\n');
    expect(await read(m1, 'b.txt')).toBe('b fixed\n');
    expect(await read(m1, 'c.txt')).toBe('c\n');
    const parents = await gitOut(['rev-list', '--parents', '-n', '1', 'HEAD'], { cwd: m1.dir });
    expect(parents.split(' ')).toEqual([m1.commitSha, mainLater, head]);
    const m2 = await headFromMerge(mirror, mainLater, head, dirFor('merge'));
    expect(m2.commitSha).toBe(m1.commitSha);
    expect(m2.treeSha).toBe(m1.treeSha);
  });

  it('reports a merge conflict naming the target and the conflicting file', async () => {
    const e = (await headFromMerge(mirror, mainLater, conflicting, dirFor('conflict'), {
      target: 'acme/web',
    }).catch((err: unknown) => err)) as InfraError;
    expect(e).toBeInstanceOf(InfraError);
    expect(e.kind).toBe('merge-conflict');
    expect(e.details).toEqual({ target: 'acme/web', files: ['a.txt'] });
    expect(e.message).toContain('acme/web');
    expect(e.message).toContain('a.txt');
  });

  it('names a commit missing from the mirror as an unknown ref', async () => {
    const e = (await materializeCheckout(mirror, 'ab'.repeat(20), dirFor('missing'), {
      target: 'acme/web',
    }).catch((err: unknown) => err)) as InfraError;
    expect(e.kind).toBe('unknown-ref');
    expect(e.message).toContain('ab'.repeat(20));
  });

  it('commits an applied patch deterministically; equal content gives equal trees', async () => {
    const patch = await diffBetween(repo, base, head);
    const p1 = await headFromPatch(mirror, base, patch, dirFor('patch'), { target: 'acme/web' });
    expect(p1.method).toBe('git apply');
    expect(await read(p1, 'b.txt')).toBe('b fixed\n');
    expect(await gitOut(['status', '--porcelain'], { cwd: p1.dir })).toBe('');
    expect(await gitOut(['rev-parse', 'HEAD^'], { cwd: p1.dir })).toBe(base);
    // Different history, same content: the tree SHA is the content address.
    expect(p1.commitSha).not.toBe(head);
    expect(p1.treeSha).toBe(await treeOf(repo, head));
    const tip = await materializeCheckout(mirror, head, dirFor('tip'));
    expect(tip.treeSha).toBe(p1.treeSha);
    // Merging onto a base the head already contains gives the same content too.
    const merged = await headFromMerge(mirror, base, head, dirFor('merge-ff'));
    expect(merged.treeSha).toBe(p1.treeSha);
    expect(merged.commitSha).not.toBe(head);
    const p2 = await headFromPatch(mirror, base, patch, dirFor('patch'), { target: 'acme/web' });
    expect(p2.commitSha).toBe(p1.commitSha);
  });

  it('keeps files a patch adds under ignored paths', async () => {
    const patch = [
      'diff --git a/dist/out.js b/dist/out.js',
      'new file mode 100644',
      '--- /dev/null',
      '+++ b/dist/out.js',
      '@@ -0,0 +1 @@',
      '+built',
      '',
    ].join('\n');
    const s = await headFromPatch(mirror, base, patch, dirFor('ignored'));
    expect(await gitOut(['ls-tree', '-r', '--name-only', 'HEAD'], { cwd: s.dir })).toContain('dist/out.js');
  });

  it('patch failures surface as patch-failed for the target', async () => {
    const e = (await headFromPatch(
      mirror,
      base,
      '--- a/zzz\n+++ b/zzz\n@@ -1 +1 @@\n-x\n+y\n',
      dirFor('bad'),
      {
        target: 'acme/web',
      },
    ).catch((err: unknown) => err)) as InfraError;
    expect(e.kind).toBe('patch-failed');
    expect(e.details).toEqual({ target: 'acme/web', files: ['zzz'] });
  });
});
