/**
 * The published package works where no checkout is: the tarball holds the compiled CLI, the
 * templates and schemas (no TypeScript), and once installed `tandem` answers --version and
 * --help and renders a report (templates found from the installed layout).
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reportSchema } from '../../src/core/report.schema.ts';
import { EXAMPLE_VERDICT, ensureDocker, exampleCase, REPO_ROOT } from '../helpers/example-cases.ts';
import { commitOn, createRepo, makeTempDir, removeTempDir } from '../helpers/git-fixtures.ts';
import { installOffline, type Packed, packTarball } from '../helpers/package-install.ts';
import { writeResolvedShard } from '../helpers/shard-report.ts';

const run = promisify(execFile);
let dir: string;
let packed: Packed;
let tandem: string;

/** Runs the installed `tandem` from outside any checkout, as a user's shell would. */
function installed(args: string[]) {
  return run(tandem, args, {
    cwd: dir,
    env: { ...process.env, PATH: `${path.dirname(process.execPath)}:${process.env.PATH}`, NO_COLOR: '1' },
  });
}

beforeAll(async () => {
  dir = await makeTempDir('tandem-package-');
  packed = await packTarball(dir);
  tandem = await installOffline(packed.tarball, dir);
}, 300_000);
afterAll(() => removeTempDir(dir));

describe('npm pack', () => {
  it('ships the compiled CLI, templates and schemas, and no TypeScript', () => {
    for (const file of [
      'bin/tandem.js',
      'build/cli/main.js',
      'templates/report.md.hbs',
      'schema/case.schema.json',
      'schema/tandem-config.schema.json',
      'scripts/build-sandbox-image.sh',
      'scripts/build-lang-images.sh',
      'scripts/lib/copy-with-libs.sh',
      'examples/workflows/tandem.yml',
      'LICENSE',
    ])
      expect(packed.files).toContain(file);
    expect(
      packed.files.filter((f) => f.endsWith('.ts') || f.startsWith('src/') || f.startsWith('test/')),
    ).toEqual([]);
    expect(packed.files.filter((f) => f.startsWith('build/.'))).toEqual([]);
  });
});

describe('the installed tandem', () => {
  it('prints its version', async () => {
    const { version } = JSON.parse(await readFile(path.join(REPO_ROOT, 'package.json'), 'utf8')) as {
      version: string;
    };
    const r = await installed(['--version']);
    expect(r.stdout).toBe(`${version}\n`);
    expect(r.stderr).toBe('');
  });

  it('prints the help with its commands, exit codes and environment', async () => {
    const r = await installed(['--help']);
    for (const text of ['eval [options] [case]', 'merge [options]', 'Exit codes:', 'TANDEM_CACHE_DIR'])
      expect(r.stdout).toContain(text);
  });

  it('needs no checkout: builds its sandbox image, writes a starter setup and checks it', async () => {
    // The image exists on this machine: the shipped script says so and succeeds.
    const image = await installed(['image', 'build', 'node']);
    expect(image.stderr).toContain('tandem/sandbox:node20');
    const init = await installed(['init', 'acme/api', '--evaluator', 'acme/evaluator', '--dir', 'setup']);
    expect(init.stdout).toContain('→ commit to acme/.github');
    const check = await installed([
      'config',
      'check',
      path.join('setup', 'acme', '.github', '.github', 'tandem.yml'),
    ]);
    expect(check.stdout).toContain('valid');
  });

  it('names in its hints only commands an installed user has', async () => {
    const { stdout } = await run('grep', [
      '-rhoE',
      '`(bash scripts/|npm run )[^`]*`',
      path.join(dir, 'node_modules', 'tandem', 'build'),
    ]).catch((e: { stdout?: string }) => ({ stdout: e.stdout ?? '' }));
    // Only `npm run docker:start`, offered for "a Tandem checkout" beside the system's own way.
    expect(stdout.split('\n').filter(Boolean)).toEqual(['`npm run docker:start`']);
  });

  it('evaluates the example case in Docker from compiled code, compiling nothing', async () => {
    ensureDocker();
    const ex = await exampleCase(path.join(dir, 'example'));
    const json = path.join(dir, 'example-report.json');
    const r = await installed(['eval', ex.caseFile, '--cache-dir', path.join(dir, 'cache'), '--json', json]);
    expect(r.stderr).toContain('Verdict: RESOLVED');
    expect(r.stderr).not.toContain('compiling');
    expect(reportSchema.parse(JSON.parse(await readFile(json, 'utf8'))).verdict).toMatchObject(
      EXAMPLE_VERDICT,
    );
  });

  it('runs a command end to end: merge renders Markdown from the packaged templates', async () => {
    const shard = await writeResolvedShard(dir);
    const md = path.join(dir, 'report.md');
    const r = await installed(['merge', shard, '--json', '-', '--markdown', md]);
    expect(reportSchema.parse(JSON.parse(r.stdout)).outcome).toBe('resolved');
    expect(await readFile(md, 'utf8')).toContain('(full matrix).');
    expect(existsSync(path.join(dir, 'node_modules', 'tandem', 'src'))).toBe(false);
  });

  it('carries neither the App (probot) nor TypeScript, and mining TypeScript history says how to add it', async () => {
    const modules = path.join(dir, 'node_modules');
    expect(existsSync(path.join(modules, 'tandem'))).toBe(true);
    for (const absent of ['probot', 'typescript', 'better-sqlite3', 'esbuild'])
      expect(existsSync(path.join(modules, absent)), absent).toBe(false);
    // A two-repository JavaScript change linked by a trailer: its interface needs `typescript`.
    const remotes = path.join(dir, 'remotes');
    const lib = await createRepo(remotes, 'lib', { 'src/index.js': 'export const v = 1;\n' });
    const app = await createRepo(remotes, 'app', { 'src/index.js': 'export const v = 1;\n' });
    await commitOn(
      lib,
      'main',
      { 'src/money.js': 'export function money(n) {\n  return n;\n}\n' },
      'Add money\n\nFixes #12',
    );
    await commitOn(
      app,
      'main',
      { 'src/total.js': 'export const total = 1;\n' },
      'Totals\n\nRelated-to: acme/lib#12',
    );
    const mined = await installed([
      'mine',
      'git',
      '--repo',
      `acme/lib=${lib.bare}`,
      '--repo',
      `acme/app=${app.bare}`,
      '--since',
      '2020-01-01',
      '--out',
      path.join(dir, 'mined.jsonl'),
    ]).then(
      () => ({ code: 0, stderr: '' }),
      (e: { code?: number; stderr?: string }) => ({ code: e.code, stderr: e.stderr ?? '' }),
    );
    expect(mined.code).toBe(2);
    expect(mined.stderr).toContain('needs the optional package "typescript", which is not installed');
  });
});
