/**
 * Prepares that reuse work, through the whole engine in Docker: outputs in subfolders, a head
 * prepared from a copy of its base's output (never written back into base), the download cache
 * shared by base prepares, and a head whose prepare fails while base's did not failing the
 * configurations that apply it (not an infrastructure error).
 */
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { SuiteInput } from '../../src/core/suite.schema.ts';
import { dockerSuite } from '../helpers/docker-suite.ts';
import {
  type Check,
  pushCommit,
  SANDBOX_IMAGE,
  shellCase,
  shellGroup,
  tapScript,
} from '../helpers/example-cases.ts';

const docker = dockerSuite('engine-prepare-reuse');

/** One target `acme/app` (STATE is base or head) prepared with `run`, checked by `checks`. */
async function preparedApp(name: string, prepare: SuiteInput['prepare'], checks: Check[]) {
  const c = await shellCase({
    name,
    repos: [
      {
        name: 'app',
        base: { STATE: 'base\n', 'packages/x/package.json': '{}\n' },
        head: { STATE: 'head\n' },
      },
    ],
    suite: { name: `${name}-suite`, image: SANDBOX_IMAGE, prepare, tests: [shellGroup('checks')] },
    hidden: { 'hidden/checks.sh': tapScript('checks.tap', checks) },
  });
  docker.track(c.root);
  return c;
}

const statuses = (r: Awaited<ReturnType<typeof docker.evaluate>>) =>
  Object.fromEntries(
    r.configurations.map((c) => [c.id, c.tests.map((t) => `${t.id.split('::').pop()}: ${t.status}`).sort()]),
  );

describe('prepare outputs and reuse', () => {
  it('mounts outputs in subfolders of the repository', async () => {
    const c = await preparedApp(
      'subfolder-outputs',
      {
        'acme/app': {
          run: 'mkdir -p node_modules/top packages/x/node_modules/inner && echo top > node_modules/top/v && echo inner > packages/x/node_modules/inner/v',
          outputs: ['node_modules', 'packages/x/node_modules'],
        },
      },
      [
        { name: 'top', cmd: 'test "$(cat app/node_modules/top/v)" = top' },
        { name: 'inner', cmd: 'test "$(cat app/packages/x/node_modules/inner/v)" = inner' },
        { name: 'inner read-only', cmd: '! touch app/packages/x/node_modules/w 2>/dev/null' },
      ],
    );
    const report = await docker.evaluate(c.input);
    expect(report.infraErrors).toEqual([]);
    expect(statuses(report)).toEqual({
      base: ['inner read-only: passed', 'inner: passed', 'top: passed'],
      full: ['inner read-only: passed', 'inner: passed', 'top: passed'],
    });
  });

  it("prepares a head from a copy of its base's output, and base keeps its own", async () => {
    // Base leaves from-base; a seeded head sees it, says so, and adds from-head.
    const run =
      'mkdir -p node_modules && if [ -f node_modules/from-base ]; then touch node_modules/head-saw-base; fi && touch node_modules/from-$(cat STATE)';
    const c = await preparedApp('seeded-head', { 'acme/app': { run } }, [
      { name: 'seeded', cmd: 'test "$(cat app/STATE)" = base || test -f app/node_modules/head-saw-base' },
      { name: 'own state', cmd: 'test -f app/node_modules/from-$(cat app/STATE)' },
      {
        name: 'base untouched',
        cmd: 'test "$(cat app/STATE)" = head || ! test -f app/node_modules/from-head',
      },
    ]);
    const report = await docker.evaluate(c.input);
    expect(report.infraErrors).toEqual([]);
    expect(statuses(report)).toEqual({
      base: ['base untouched: passed', 'own state: passed', 'seeded: passed'],
      full: ['base untouched: passed', 'own state: passed', 'seeded: passed'],
    });
  });

  it('gives base prepares a persistent download cache, and PR heads none of it', async () => {
    const run =
      // biome-ignore lint/suspicious/noTemplateCurlyInString: shell parameter expansion, not a template
      'touch "${npm_config_cache:-/tmp}/touched-$(cat STATE)" && mkdir -p "${PIP_CACHE_DIR:-/tmp}" "${GOMODCACHE:-/tmp}"';
    const c = await preparedApp('download-cache', { 'acme/app': { run } }, [{ name: 'ran', cmd: 'true' }]);
    const report = await docker.evaluate(c.input);
    expect(report.infraErrors).toEqual([]);
    const root = path.join(docker.cacheDir, 'downloads');
    const [image] = await readdir(root);
    expect((await readdir(path.join(root, image!))).sort()).toEqual(['go', 'npm', 'pip']);
    expect(await readdir(path.join(root, image!, 'npm'))).toEqual(['touched-base']);
  });

  it("fails the configurations applying a head whose prepare fails while base's succeeded", async () => {
    const run = 'if [ "$(cat STATE)" = head ]; then echo "lockfile out of sync-4321"; exit 7; fi';
    const c = await preparedApp('head-prepare-fails', { 'acme/app': { run } }, [
      { name: 'ran', cmd: 'true' },
    ]);
    const report = await docker.evaluate(c.input);
    expect(report.infraErrors).toEqual([]);
    const byId = Object.fromEntries(report.configurations.map((x) => [x.id, x]));
    expect(byId.base!.outcome).toBe('pass');
    expect(byId.full!.outcome).toBe('fail');
    const group = byId.full!.groups.find((g) => g.name === 'checks')!;
    expect(group.reason).toMatch(/^prepare failed: prepare for acme\/app exited with 7/);
    expect(group.reason).toContain('lockfile out of sync-4321');
  });

  it("keeps a base state's failing prepare an infrastructure error", async () => {
    const run = 'if [ "$(cat STATE)" = base ]; then echo "mirror down-8765"; exit 5; fi';
    const c = await preparedApp('base-prepare-fails', { 'acme/app': { run } }, [
      { name: 'ran', cmd: 'true' },
    ]);
    const report = await docker.evaluate(c.input);
    const byId = Object.fromEntries(report.configurations.map((x) => [x.id, x]));
    expect(byId.base!.outcome).toBe('error');
    expect(report.infraErrors).toEqual([
      expect.objectContaining({
        kind: 'prepare',
        target: 'acme/app',
        message: expect.stringContaining('mirror down-8765'),
      }),
    ]);
  });

  it('after a push to one of three targets, reuses half the configurations and every unchanged prepared state', async () => {
    // Identical trees on purpose: a, b and c share one prepared folder per state, each mounted
    // under its own name (a joiner once got the first repository's mount paths).
    const repo = (name: string) => ({ name, base: { STATE: 'base\n' }, head: { STATE: 'head\n' } });
    const prepare = { run: 'mkdir -p node_modules && cp STATE node_modules/' };
    const c = await shellCase({
      name: 'push-one',
      repos: [repo('a'), repo('b'), repo('c')],
      suite: {
        name: 'push-one-suite',
        image: SANDBOX_IMAGE,
        prepare: { 'acme/a': prepare, 'acme/b': prepare, 'acme/c': prepare },
        tests: [shellGroup('checks')],
      },
      hidden: { 'hidden/checks.sh': tapScript('checks.tap', [{ name: 'ran', cmd: 'true' }]) },
    });
    docker.track(c.root);
    await docker.evaluate(c.input);
    await pushCommit(c.repos.b!.bare, 'feature', { 'more.txt': 'pushed\n' });
    const prepares: Array<{ repo: string; reused: boolean }> = [];
    const again = await docker.evaluate(c.input, {
      onEvent: (e) => {
        if (e.type === 'prepare-done') prepares.push({ repo: e.repo, reused: e.reused });
      },
    });
    expect(again.infraErrors).toEqual([]);
    const cached = again.configurations.filter((x) => x.cached).map((x) => x.id);
    // Every configuration with acme/b at base: 4 of 8.
    expect(cached.sort()).toEqual(['a', 'a+c', 'base', 'c'].sort());
    // Only acme/b's new head is prepared again (from a copy of b's base output).
    expect(prepares.filter((p) => !p.reused)).toEqual([{ repo: 'acme/b', reused: false }]);
  });
});
