/**
 * `tandem init` for a mixed organization (the built CLI, spawned, on real git checkouts): each
 * repository's toolchain is detected from its checkout and the suite prepares and tests it that
 * way; a repository without a checkout or a known toolchain is said with what was seen; the
 * closing lines list the remaining steps; and the case file it writes runs with `tandem eval`
 * in Docker on the local checkouts (a Node and a Go repository in the Go image).
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { reportSchema } from '../../src/core/report.schema.ts';
import { loadSuiteFile } from '../../src/engine/case-loader.ts';
import { git } from '../../src/engine/git/git.ts';
import { dockerSuite } from '../helpers/docker-suite.ts';
import { runCli } from '../helpers/example-cases.ts';
import { createRepo, type Files, makeTempDir } from '../helpers/git-fixtures.ts';

const docker = dockerSuite('cli-init');
let dir: string;
beforeAll(async () => {
  dir = docker.track(await makeTempDir('tandem-init-detect-'));
});

/** A repository with one commit of `files`, cloned to `<root>/checkouts/<name>` (origin/HEAD: main). */
async function checkout(root: string, name: string, files: Files): Promise<string> {
  const repo = await createRepo(path.join(root, 'remotes'), name, files);
  const dest = path.join(root, 'checkouts', name);
  await git(['clone', '--quiet', repo.bare, dest]);
  return dest;
}

const PKG = '{ "name": "x", "version": "1.0.0", "private": true }\n';
const LOCK =
  '{ "name": "x", "version": "1.0.0", "lockfileVersion": 3, "requires": true, "packages": { "": { "name": "x", "version": "1.0.0" } } }\n';

/** `tandem init` of `acme/<name>` for each of `names`, detecting from `<root>/checkouts`, writing `<root>/out`. */
async function init(root: string, names: string[]) {
  const out = path.join(root, 'out');
  const r = await runCli([
    'init',
    ...names.map((n) => `acme/${n}`),
    '--evaluator',
    'acme/evaluator',
    '--checkouts',
    path.join(root, 'checkouts'),
    '--dir',
    out,
  ]);
  expect(r.code, r.stderr).toBe(0);
  return { r, out };
}

describe('tandem init --checkouts', () => {
  it('detects each toolchain, says what it saw where it cannot, and lists the remaining steps', async () => {
    const root = path.join(dir, 'mixed');
    await checkout(root, 'api', { 'package.json': PKG, 'package-lock.json': LOCK });
    await checkout(root, 'web', { 'package.json': PKG });
    await checkout(root, 'shop', { 'package.json': PKG, 'yarn.lock': '' });
    await checkout(root, 'ui', { 'package.json': PKG, 'pnpm-lock.yaml': '' });
    await checkout(root, 'worker', { 'pyproject.toml': '[project]\nname = "worker"\n' });
    await checkout(root, 'rates', { 'requirements.txt': 'requests\n' });
    await checkout(root, 'gw', { 'go.mod': 'module example.com/gw\n\ngo 1.19\n' });
    await checkout(root, 'docs', { 'README.md': '# docs\n', 'guide/intro.md': 'hi\n' });
    const { r, out } = await init(root, [
      'api',
      'web',
      'shop',
      'ui',
      'worker',
      'rates',
      'gw',
      'docs',
      'ghost',
    ]);
    expect(r.stdout).toContain('acme/api: npm (package.json and package-lock.json)');
    expect(r.stdout).toContain('acme/web: npm-no-lock (package.json without a lockfile)');
    expect(r.stdout).toContain('acme/shop: yarn (package.json and yarn.lock)');
    expect(r.stdout).toContain('acme/ui: pnpm (package.json and pnpm-lock.yaml)');
    expect(r.stdout).toContain('acme/worker: python (pyproject.toml)');
    expect(r.stdout).toContain('acme/rates: python (requirements.txt)');
    expect(r.stdout).toContain('acme/gw: go (go.mod)');
    expect(r.stdout).toContain(
      `acme/docs: not detected: no package.json, go.mod, pyproject.toml or requirements.txt at the root of ${path.join(root, 'checkouts', 'docs')} (saw: README.md, guide/)`,
    );
    expect(r.stdout).toContain(
      `acme/ghost: not detected: no checkout at ${path.join(root, 'checkouts', 'ghost')}`,
    );
    expect(r.stdout).toContain('image: no Tandem image has both Python and Go');
    expect(r.stdout).toMatch(/install the Tandem App on acme\/api, .*acme\/evaluator and acme\/\.github/);
    expect(r.stdout).toContain('variable TANDEM_APP_ID and secret TANDEM_APP_PRIVATE_KEY');

    const evaluator = path.join(out, 'acme', 'evaluator');
    const suite = await loadSuiteFile(path.join(evaluator, 'suites', 'main', 'suite.yml'));
    expect(Object.fromEntries(Object.entries(suite.prepare).map(([k, p]) => [k, p.run]))).toEqual({
      api: 'npm ci --no-audit --no-fund',
      web: 'npm install --no-audit --no-fund --no-package-lock',
      shop: 'npx --yes yarn@1 install --frozen-lockfile',
      ui: 'npx --yes pnpm install --frozen-lockfile --config.node-linker=hoisted',
      worker: 'python3 -m pip install --no-input --target .pydeps .',
      rates: 'python3 -m pip install --no-input --target .pydeps -r requirements.txt',
      gw: 'GOMODCACHE=$PWD/.gomodcache GOFLAGS=-modcacherw GOPROXY=https://proxy.golang.org go mod download',
    });
    expect(suite.tests.find((t) => t.name === 'worker')?.files).toEqual(['hidden/test_worker.py']);
    expect(suite.tests.find((t) => t.name === 'gw')?.results.format).toBe('go-test-json');
    const check = await runCli([
      'config',
      'check',
      path.join(out, 'acme', '.github', '.github', 'tandem.yml'),
      '--evaluator-dir',
      evaluator,
    ]);
    expect(check.code, check.stderr).toBe(0);
    const plan = await runCli(['plan', path.join(out, 'try-main.yml')]);
    expect(plan.code, plan.stderr).toBe(0);
  });

  it('the case file it writes runs the suite on the local checkouts (Node and Go, in the Go image)', async () => {
    const root = path.join(dir, 'run');
    const api = await checkout(root, 'api', { 'package.json': PKG, 'package-lock.json': LOCK });
    await checkout(root, 'gw', { 'go.mod': 'module example.com/gw\n\ngo 1.19\n', 'gw.go': 'package gw\n' });
    await git(['checkout', '--quiet', '-b', 'feature'], { cwd: api });
    const { out } = await init(root, ['api', 'gw']);
    const caseText = await readFile(path.join(out, 'try-main.yml'), 'utf8');
    expect(caseText).toContain('head: "feature"');
    const suite = await loadSuiteFile(path.join(out, 'acme', 'evaluator', 'suites', 'main', 'suite.yml'));
    expect(suite.image).toBe('tandem/sandbox:go');
    const json = path.join(root, 'report.json');
    const run = await runCli([
      'eval',
      path.join(out, 'try-main.yml'),
      ...docker.cliFlags(),
      '--json',
      json,
      '--quiet',
    ]);
    expect([0, 1], run.stderr).toContain(run.code);
    const report = reportSchema.parse(JSON.parse(await readFile(json, 'utf8')));
    expect(report.infraErrors).toEqual([]);
    const full = report.configurations.find((c) => c.role === 'full')!;
    expect(full.tests.map((t) => t.status)).not.toContain('failed');
    expect(full.tests.length).toBeGreaterThanOrEqual(2);
  });
});
