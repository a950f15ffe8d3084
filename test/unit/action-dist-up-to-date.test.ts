/**
 * The committed bundle must be what the sources build to: CI fails when someone changes the
 * Action (or anything it bundles, or a template) without running `npm run build:action`.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTempDir, removeTempDir } from '../helpers/git-fixtures.ts';

const ROOT = path.resolve(import.meta.dirname, '..', '..');

function files(dir: string, rel = ''): string[] {
  return readdirSync(path.join(dir, rel))
    .sort()
    .flatMap((name) => {
      const r = rel ? `${rel}/${name}` : name;
      return statSync(path.join(dir, r)).isDirectory() ? files(dir, r) : [r];
    });
}

let out: string;
beforeAll(async () => {
  out = await makeTempDir('tandem-dist-');
  execFileSync('bash', [path.join(ROOT, 'scripts', 'build-action.sh'), out], { cwd: ROOT, stdio: 'pipe' });
}, 120_000);
afterAll(async () => {
  await removeTempDir(out);
});

describe('dist/', () => {
  const stale = 'dist/ is out of date: run `npm run build:action` and commit dist/';

  it('dist/index.js is the bundle the sources build to', () => {
    const built = readFileSync(path.join(out, 'index.js'), 'utf8');
    const committed = readFileSync(path.join(ROOT, 'dist', 'index.js'), 'utf8');
    expect(committed.length, stale).toBe(built.length);
    expect(committed === built, stale).toBe(true);
  });

  it('dist/templates/ holds the current templates', () => {
    const built = files(path.join(out, 'templates'));
    expect(built).toContain('report.md.hbs');
    expect(files(path.join(ROOT, 'dist', 'templates')), stale).toEqual(built);
    for (const f of built) {
      expect(readFileSync(path.join(ROOT, 'dist', 'templates', f), 'utf8'), `${stale} (${f})`).toBe(
        readFileSync(path.join(out, 'templates', f), 'utf8'),
      );
    }
  });

  it('the build is deterministic', () => {
    const again = path.join(out, 'again');
    execFileSync('bash', [path.join(ROOT, 'scripts', 'build-action.sh'), again], {
      cwd: ROOT,
      stdio: 'pipe',
    });
    expect(
      readFileSync(path.join(again, 'index.js'), 'utf8') === readFileSync(path.join(out, 'index.js'), 'utf8'),
    ).toBe(true);
  });
});
