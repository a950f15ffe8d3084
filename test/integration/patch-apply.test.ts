import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InfraError } from '../../src/core/errors.ts';
import { gitOut } from '../../src/engine/git/git.ts';
import { MirrorCache } from '../../src/engine/git/git-mirror.ts';
import { applyPatch } from '../../src/engine/git/patch-apply.ts';
import { materializeCheckout } from '../../src/engine/git/repo-state.ts';
import {
  commitOn,
  createRepo,
  diffBetween,
  type FixtureRepo,
  makeTempDir,
  plainDiffBetween,
  removeTempDir,
} from '../helpers/git-fixtures.ts';

const lines = (edit: Record<number, string> = {}) =>
  `${Array.from({ length: 20 }, (_, i) => edit[i + 1] ?? `line ${i + 1}`).join('\n')}\n`;

let root: string;
let repo: FixtureRepo;
let mirror: string;
let base: string; // the patches' own base
let feature: string; // line 10 changed
let drifted: string; // main moved on: line 13 changed (inside the hunk's context)
let n = 0;

beforeAll(async () => {
  root = await makeTempDir();
  const created = await createRepo(root, 'lib', { 'f.txt': lines(), 'g.txt': 'g\n' });
  repo = created;
  base = created.sha;
  feature = await commitOn(repo, 'feature', { 'f.txt': lines({ 10: 'line 10 fixed' }) }, 'fix', {
    from: base,
  });
  drifted = await commitOn(repo, 'main', { 'f.txt': lines({ 13: 'line 13 moved on' }) }, 'drift', {
    from: base,
  });
  mirror = await new MirrorCache(path.join(root, 'cache')).ensure(repo.url);
});
afterAll(() => removeTempDir(root));

async function checkout(sha: string): Promise<string> {
  const dir = path.join(root, 'states', `s${n++}`);
  await materializeCheckout(mirror, sha, dir);
  return dir;
}

async function status(dir: string): Promise<string> {
  return gitOut(['status', '--porcelain', '--ignored'], { cwd: dir });
}

describe('applyPatch', () => {
  it('applies a clean patch with plain git apply', async () => {
    const dir = await checkout(base);
    const res = await applyPatch(dir, await diffBetween(repo, base, feature), { target: 'acme/lib' });
    expect(res).toEqual({ method: 'git apply' });
    expect(await readFile(path.join(dir, 'f.txt'), 'utf8')).toBe(lines({ 10: 'line 10 fixed' }));
  });

  it('falls back to --3way when the context drifted but the blobs are known', async () => {
    const dir = await checkout(drifted);
    const res = await applyPatch(dir, await diffBetween(repo, base, feature));
    expect(res.method).toBe('git apply --3way');
    expect(await readFile(path.join(dir, 'f.txt'), 'utf8')).toBe(
      lines({ 10: 'line 10 fixed', 13: 'line 13 moved on' }),
    );
  });

  it('falls back to patch --fuzz=5 for a hand-made patch on drifted context, leaving no .orig/.rej', async () => {
    const dir = await checkout(drifted);
    const patch = await plainDiffBetween(repo, base, feature);
    expect(patch).not.toMatch(/^index /m);
    const res = await applyPatch(dir, patch.trimEnd()); // also: no trailing newline
    expect(res.method).toBe('patch --fuzz=5');
    expect(await readFile(path.join(dir, 'f.txt'), 'utf8')).toBe(
      lines({ 10: 'line 10 fixed', 13: 'line 13 moved on' }),
    );
    expect(await status(dir)).toBe('M f.txt');
  });

  it('fails with the target and the files that did not apply, leaving a clean tree', async () => {
    const dir = await checkout(base);
    const bad = [
      'diff --git a/f.txt b/f.txt',
      '--- a/f.txt',
      '+++ b/f.txt',
      '@@ -3,3 +3,3 @@',
      ' nothing like this',
      '-is in the file',
      '+at all',
      ' really',
      'diff --git a/g.txt b/g.txt',
      '--- a/g.txt',
      '+++ b/g.txt',
      '@@ -1 +1 @@',
      '-g',
      '+G',
      '',
    ].join('\n');
    const e = await applyPatch(dir, bad, { target: 'acme/lib' }).then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(e).toBeInstanceOf(InfraError);
    const err = e as InfraError;
    expect(err.kind).toBe('patch-failed');
    expect(err.details.target).toBe('acme/lib');
    expect(err.details.files).toEqual(['f.txt']);
    expect(err.message).toContain('acme/lib');
    expect(err.message).toContain('f.txt');
    expect(err.message).toMatch(/f\.txt hunk #1/);
    expect(await status(dir)).toBe('');
    expect((await readdir(dir)).sort()).toEqual(['.git', 'f.txt', 'g.txt']);
  });

  it('names a file the patch expects but the tree lacks', async () => {
    const dir = await checkout(base);
    const missing = ['--- a/nope.txt', '+++ b/nope.txt', '@@ -1 +1 @@', '-x', '+y', ''].join('\n');
    const e = (await applyPatch(dir, missing, { target: 'acme/lib' }).catch(
      (err: unknown) => err,
    )) as InfraError;
    expect(e.kind).toBe('patch-failed');
    expect(e.details.files).toContain('nope.txt');
    expect(await status(dir)).toBe('');
  });

  it('rejects input that is not a patch', async () => {
    const dir = await checkout(base);
    const e = (await applyPatch(dir, 'hello\n').catch((err: unknown) => err)) as InfraError;
    expect(e.kind).toBe('patch-failed');
    expect(e.message).toMatch(/No valid patches|Only garbage/i);
  });
});
