/**
 * The real-case benchmark's fixture (perf/fixtures/real-case/): the bundles hold the base and the
 * PR head of each repository, the hidden tests never appear in a PR head, and the generated case
 * and suite load (wiring included) as `tandem eval` would load them. Real git on the bundles.
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { caseYaml, FIXTURE, REAL_REPOS, suiteYaml } from '../../perf/real-case-spec.ts';
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

describe('bench real-case fixture', () => {
  let tmp: string;
  beforeAll(async () => {
    tmp = await mkdtemp(path.join(os.tmpdir(), 'tandem-real-fixture-'));
  });
  afterAll(async () => {
    await rm(tmp, { recursive: true, force: true });
  });

  it.each(REAL_REPOS.map((r) => [r.name]))(
    '%s: pr is one commit on main, with no hidden test in it',
    async (name) => {
      const bare = path.join(tmp, `${name}.git`);
      await exec('git', [
        'clone',
        '--quiet',
        '--bare',
        path.join(FIXTURE, 'bundles', `${name}.bundle`),
        bare,
      ]);
      const git = async (...args: string[]) =>
        (await exec('git', ['--git-dir', bare, ...args])).stdout.trim();
      expect(await git('rev-parse', 'pr^')).toBe(await git('rev-parse', 'main'));
      // The PR head changes code, never tests/: the evaluator's copies stay with the evaluator.
      expect(await git('diff', '--name-only', 'main', 'pr', '--', 'tests')).toBe('');
      expect(await git('diff', '--name-only', 'main', 'pr')).not.toBe('');
      const hiddenRoot = path.join(FIXTURE, 'hidden', name);
      const hidden = await files(hiddenRoot);
      expect(hidden.length).toBeGreaterThan(0);
      for (const f of hidden) {
        const inHead = await git('show', `pr:${f}`).catch(() => undefined);
        expect(inHead, f).not.toBe((await readFile(path.join(hiddenRoot, f), 'utf8')).trim());
      }
    },
  );

  it('the case and its suite load, with each consumer wired to its producers', async () => {
    await writeFile(
      path.join(tmp, 'case.yml'),
      caseYaml((n) => `http://127.0.0.1:1/${n}.git`),
    );
    await mkdir(path.join(tmp, 'evaluator', 'hidden'), { recursive: true });
    await writeFile(path.join(tmp, 'evaluator', 'suite.yml'), suiteYaml());
    const input = await loadCase(path.join(tmp, 'case.yml'));
    expect(input.suite.wiring.map((w) => `${w.into}<-${w.repo}`)).toEqual([
      'eslint/espree<-eslint/eslint-visitor-keys',
      'eslint/eslint<-eslint/espree',
      'eslint/eslint<-eslint/eslint-visitor-keys',
    ]);
    expect(Object.keys(input.suite.prepare)).toEqual(REAL_REPOS.map((r) => r.repo));
    expect(input.suite.tests.map((t) => t.files)).toEqual(REAL_REPOS.map((r) => [`hidden/${r.name}/tests`]));
  });
});
