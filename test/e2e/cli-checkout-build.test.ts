/**
 * `bin/tandem.js` in a checkout: it compiles when there is no build or a source is newer than
 * the build, once even when several runs start together, and otherwise runs the build as is;
 * without TypeScript installed it says what to run. On a copy of the committed sources (`git
 * archive HEAD`: files being edited in the working tree may not compile), so the real checkout's
 * build is left alone; the launcher, build script and build configuration are the working tree's.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdir, readFile, rm, symlink, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/example-cases.ts';
import { makeTempDir, removeTempDir } from '../helpers/git-fixtures.ts';

const run = promisify(execFile);
let dir: string;

beforeAll(async () => {
  dir = await makeTempDir('tandem-checkout-');
  const archive = path.join(dir, 'sources.tar');
  await run('git', ['archive', '--output', archive, 'HEAD', 'src', 'tsconfig.json', 'package.json'], {
    cwd: REPO_ROOT,
  });
  await run('tar', ['-xf', archive, '-C', dir]);
  // The build machinery under test as it is in the working tree.
  for (const part of ['bin/tandem.js', 'scripts/build-cli.js', 'tsconfig.build.json'])
    await cp(path.join(REPO_ROOT, part), path.join(dir, part));
  await symlink(path.join(REPO_ROOT, 'node_modules'), path.join(dir, 'node_modules'));
});
afterAll(() => removeTempDir(dir));

function tandem(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [path.join(dir, 'bin', 'tandem.js'), ...args], (err, stdout, stderr) =>
      resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

const compiles = (stderr: string) => stderr.match(/^tandem: compiling the CLI from src\//gm)?.length ?? 0;

describe('a checkout', () => {
  it('compiles once when two runs start without a build, then runs the build as is', async () => {
    const [a, b] = await Promise.all([tandem(['--version']), tandem(['--version'])]);
    expect([a.code, b.code]).toEqual([0, 0]);
    expect(a.stdout).toBe(b.stdout);
    expect(compiles(a.stderr) + compiles(b.stderr)).toBe(1);
    expect(a.stderr + b.stderr).toContain('(no build yet)');

    const again = await tandem(['--version']);
    expect(again.stderr).toBe('');
  }, 300_000);

  it('recompiles after a source changes, and runs the new code', async () => {
    const file = path.join(dir, 'src', 'cli', 'commands', 'help-text.ts');
    await writeFile(file, (await readFile(file, 'utf8')).replace('Examples:', 'Examples (edited):'));
    const later = new Date(Date.now() + 5000);
    await utimes(file, later, later);
    const r = await tandem(['--help']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('(the sources changed since the last build)');
    expect(r.stdout).toContain('Examples (edited):');
  }, 300_000);

  it('breaks a lock left by a build that was killed', async () => {
    const dead = await new Promise<number>((resolve) => {
      const child = execFile(process.execPath, ['-e', '0'], () => resolve(child.pid!));
    });
    await mkdir(path.join(dir, 'build.lock'));
    await writeFile(path.join(dir, 'build.lock', 'pid'), String(dead));
    const file = path.join(dir, 'src', 'cli', 'context.ts');
    const later = new Date(Date.now() + 10_000);
    await utimes(file, later, later);
    const r = await tandem(['--version']);
    expect(r.code, r.stderr).toBe(0);
    expect(compiles(r.stderr)).toBe(1);
    expect(existsSync(path.join(dir, 'build.lock'))).toBe(false);
  }, 300_000);

  it('`npm start`s build step (`--if-stale`) compiles nothing when the build is current', async () => {
    const script = path.join(dir, 'scripts', 'build-cli.js');
    const startCmd = JSON.parse(await readFile(path.join(REPO_ROOT, 'package.json'), 'utf8')).scripts.start;
    expect(startCmd).toContain('build-cli.js --if-stale');
    const stampOf = () => readFile(path.join(dir, 'build', '.sources-compiled')).then(() => true);
    // The newest source dated ahead, at a fraction of a millisecond (as copies and file systems
    // keep them): the stamp must not come out a fraction older.
    const ahead = (Date.now() + 5_000) / 1000 + 0.0004;
    await utimes(path.join(dir, 'src', 'cli', 'context.ts'), ahead, ahead);
    await tandem(['--version']);
    expect(await stampOf()).toBe(true);
    const current = await run(process.execPath, [script, '--if-stale'], { cwd: dir });
    expect(current.stderr).toBe('');
    const file = path.join(dir, 'src', 'cli', 'exit-codes.ts');
    const later = new Date(Date.now() + 20_000);
    await utimes(file, later, later);
    const stale = await run(process.execPath, [script, '--if-stale'], { cwd: dir });
    expect(compiles(stale.stderr)).toBe(1);
  }, 300_000);

  it('without TypeScript installed, says to run npm ci', async () => {
    await rm(path.join(dir, 'node_modules'));
    await rm(path.join(dir, 'build'), { recursive: true });
    const r = await tandem(['--version']);
    expect(r.code).toBe(3);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('run `npm ci` first');
  });
});
