/**
 * Issue 18 item 7, on real git and Docker: a PR onto a pushed branch (`evil`, the same
 * package.json as `main`, a different install script) must not store an install that a later
 * evaluation of untouched `main` mounts, nor write into the download cache base prepares share.
 * Only base states on a trusted branch (the default branch unless the suite says otherwise)
 * share by `key_files`; any other base is prepared like a PR head.
 */
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Report } from '../../src/core/report.schema.ts';
import { dockerSuite } from '../helpers/docker-suite.ts';
import { SANDBOX_IMAGE, shellCase, shellGroup, tapScript, writeCase } from '../helpers/example-cases.ts';
import { commitOn } from '../helpers/git-fixtures.ts';

const docker = dockerSuite('base-branch-poison');
const HONEST = 'mkdir -p node_modules && echo main > node_modules/marker\n';
const POISON = [
  'mkdir -p node_modules && echo POISON > node_modules/marker',
  // Plant something in the download cache, when one is mounted, for every later base install.
  'if [ -n "$npm_config_cache" ]; then mkdir -p "$npm_config_cache" && echo poison > "$npm_config_cache/planted-by-evil"; fi',
  '',
].join('\n');

/** Every file name under `dir`, recursively ([] when it does not exist). */
async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((e) => e.isFile()).map((e) => e.name);
}

let poisoned: Report;
let honest: Report;
let downloadsAfterEvil: string[];

beforeAll(async () => {
  const c = await shellCase({
    name: 'main-after-evil',
    repos: [
      {
        name: 'app',
        base: { 'package.json': '{"name":"app","version":"1.0.0"}\n', 'install.sh': HONEST },
        head: { 'feature.txt': 'feature\n' },
      },
    ],
    suite: {
      name: 'poison-suite',
      image: SANDBOX_IMAGE,
      prepare: {
        'acme/app': { run: 'sh install.sh', key_files: ['package.json'], outputs: ['node_modules'] },
      },
      tests: [shellGroup('checks')],
    },
    hidden: {
      'hidden/checks.sh': tapScript('checks.tap', [
        { name: 'dependencies from main', cmd: 'test "$(cat app/node_modules/marker)" = main' },
      ]),
    },
  });
  docker.track(c.root);
  const app = c.repos.app!;
  // The attacker pushes `evil` off main: same package.json, its own install script, and a PR onto it.
  await commitOn(app, 'evil', { 'install.sh': POISON }, 'evil install', { from: 'main' });
  await commitOn(app, 'evil-pr', { 'pr.txt': 'pr\n' }, 'a PR onto evil', { from: 'evil' });
  const evil = await writeCase(c.root, 'evil-case.yml', {
    name: 'pr-onto-evil',
    suite: 'evaluator/suite.yml',
    targets: [{ repo: 'acme/app', url: app.url, base: 'evil', head: 'evil-pr' }],
  });
  poisoned = await docker.evaluate(evil.input, { useResultCache: false });
  downloadsAfterEvil = await filesUnder(path.join(docker.cacheDir, 'downloads'));
  honest = await docker.evaluate(c.input, { useResultCache: false });
}, 300_000);

describe('a pushed base branch', () => {
  it('ran its own install (the attack took place)', () => {
    expect(poisoned.outcome).not.toBe('error');
    expect(poisoned.configurations.find((x) => x.id === 'base')?.tests[0]?.status).toBe('failed');
  });

  it('wrote nothing into the shared download cache', () => {
    expect(downloadsAfterEvil).not.toContain('planted-by-evil');
  });

  it('does not give a later evaluation of untouched main its install', () => {
    expect(honest.outcome).toBe('resolved');
    expect(honest.configurations.map((x) => [x.id, x.outcome])).toEqual([
      ['base', 'pass'],
      ['full', 'pass'],
    ]);
  });
});
