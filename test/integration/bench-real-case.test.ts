/**
 * The real npm benchmark's generated case (perf/real-case-repos.ts), without network: each
 * repository's `pr` is one commit on `main` that changes code and holds no hidden test, each
 * package.json names the package the wiring expects and carries a toolchain's devDependencies,
 * and the case and its wired suite load as `tandem eval` would load them. Real git.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { layRealCase, type RealCaseLayout } from '../../perf/real-case-repos.ts';
import { caseYaml, REAL_REPOS, WIRING } from '../../perf/real-case-spec.ts';
import { loadCase } from '../../src/engine/case-loader.ts';

const exec = promisify(execFile);

async function files(dir: string, rel = ''): Promise<string[]> {
  const out: string[] = [];
  for (const e of await readdir(path.join(dir, rel), { withFileTypes: true })) {
    const p = path.posix.join(rel, e.name);
    if (e.isDirectory()) out.push(...(await files(dir, p)));
    else out.push(p);
  }
  return out;
}

describe('bench real npm case, generated', () => {
  let tmp: string;
  let layout: RealCaseLayout;
  beforeAll(async () => {
    tmp = await mkdtemp(path.join(os.tmpdir(), 'tandem-real-case-'));
    layout = layRealCase(tmp);
  });
  afterAll(async () => {
    await rm(tmp, { recursive: true, force: true });
  });

  it.each(REAL_REPOS.map((r) => [r.name]))(
    '%s: pr is one commit on main that changes code, with no hidden test in it',
    async (name) => {
      const git = async (...args: string[]) =>
        (await exec('git', ['--git-dir', path.join(layout.remotes, `${name}.git`), ...args])).stdout.trim();
      expect(await git('rev-parse', 'pr^')).toBe(await git('rev-parse', 'main'));
      expect(await git('diff', '--name-only', 'main', 'pr', '--', 'lib')).not.toBe('');
      expect(await git('diff', '--name-only', 'main', 'pr', '--', 'tests')).toBe('');
      const hiddenRoot = path.join(layout.evaluator, 'hidden', name);
      const hidden = await files(hiddenRoot);
      expect(hidden.length).toBeGreaterThan(0);
      const inHead = (await git('ls-tree', '-r', '--name-only', 'pr')).split('\n');
      for (const f of hidden) expect(inHead, f).not.toContain(f);
      // Nor under another name: no blob of the head is a hidden file.
      for (const f of inHead) {
        const text = await git('show', `pr:${f}`);
        for (const h of hidden)
          expect(text, `${f} vs ${h}`).not.toBe((await readFile(path.join(hiddenRoot, h), 'utf8')).trim());
      }
    },
  );

  it('each package.json is the package the wiring names and installs a toolchain', async () => {
    for (const r of REAL_REPOS) {
      const git = (...args: string[]) =>
        exec('git', ['--git-dir', path.join(layout.remotes, `${r.name}.git`), ...args]).then((x) => x.stdout);
      const pkg = JSON.parse(await git('show', 'main:package.json')) as {
        name: string;
        dependencies?: object;
        devDependencies: Record<string, string>;
      };
      expect(pkg.name).toBe(r.name);
      // Producers come from the wiring, never from the registry (a package of that name may exist there).
      expect(pkg.dependencies).toBeUndefined();
      expect(Object.keys(pkg.devDependencies)).toEqual(
        expect.arrayContaining(['mocha', 'eslint', '@babel/core']),
      );
      expect(Object.keys(pkg.devDependencies).length).toBeGreaterThanOrEqual(11);
    }
    for (const w of WIRING) expect(REAL_REPOS.map((r) => r.name)).toContain(w.name);
  });

  it('the case and its suite load, with each consumer wired to its producers', async () => {
    const caseFile = path.join(tmp, 'case.yml');
    await writeFile(
      caseFile,
      caseYaml((n) => `http://127.0.0.1:1/${n}.git`),
    );
    const input = await loadCase(caseFile);
    expect(input.suite.wiring.map((w) => `${w.into}<-${w.repo}`)).toEqual([
      'acme/acme-parser<-acme/acme-visitor-keys',
      'acme/acme-linter<-acme/acme-parser',
      'acme/acme-linter<-acme/acme-visitor-keys',
    ]);
    expect(Object.keys(input.suite.prepare)).toEqual(REAL_REPOS.map((r) => r.repo));
    expect(input.suite.tests.map((t) => t.files)).toEqual(REAL_REPOS.map((r) => [`hidden/${r.name}/tests`]));
    expect(input.caseFile.targets.map((t) => t.repo)).toEqual(REAL_REPOS.map((r) => r.repo));
  });
});
