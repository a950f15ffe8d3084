/**
 * Attacks on dependency preparation (issue 8, findings 1 and 4), through the real engine with
 * real Docker and real git: a PR whose prepared output is a link to a host folder must not get
 * that folder mounted (or moved), and a PR head's install must never be reused by base.
 */
import { access } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Report } from '../../src/core/report.schema.ts';
import { dockerSuite } from '../helpers/docker-suite.ts';
import { SANDBOX_IMAGE, shellCase, shellGroup, tapScript } from '../helpers/example-cases.ts';
import { commitSymlinks, hostCanary, reportText, statuses } from './attack-kit.ts';

const docker = dockerSuite('sec-prepare');

/**
 * The head's prepare was refused for a linked output: the PR's own doing, so its configuration
 * fails with Tandem's reason (not an infrastructure error). Returns that reason.
 */
function refusedHead(report: Report): string {
  const full = report.configurations.find((x) => x.id === 'full')!;
  expect(report.infraErrors).toEqual([]);
  expect(full.outcome).toBe('fail');
  expect(full.groups[0]).toMatchObject({ status: 'setup-failed' });
  const reason = full.groups[0]!.reason ?? '';
  expect(reason).toMatch(/prepare failed: .*left an unusable output: .*symbolic link/);
  return reason;
}

/** One target `acme/app` with a prepare and one group checking what the workspace shows. */
async function prepareCase(opts: {
  name: string;
  prepare: { run: string; outputs?: string[]; key_files?: string[] };
  base: Record<string, string>;
  head: Record<string, string>;
  checks: Array<{ name: string; cmd: string }>;
}) {
  const c = await shellCase({
    name: opts.name,
    repos: [{ name: 'app', base: opts.base, head: opts.head }],
    suite: {
      name: `${opts.name}-suite`,
      image: SANDBOX_IMAGE,
      prepare: { 'acme/app': opts.prepare },
      tests: [shellGroup('probe')],
    },
    hidden: { 'hidden/probe.sh': tapScript('probe.tap', opts.checks) },
  });
  docker.track(c.root);
  return c;
}

describe('attack: prepared outputs that are links to the host', () => {
  it('a committed `node_modules -> <host folder>` is refused, never mounted', async () => {
    const canary = docker.track((await hostCanary('mount')).dir);
    const c = await prepareCase({
      name: 'link-output',
      prepare: { run: 'true' },
      base: { 'index.js': '1;\n' },
      head: { 'index.js': '2;\n' },
      checks: [{ name: 'host folder invisible', cmd: 'test ! -e app/node_modules/canary.txt' }],
    });
    await commitSymlinks(c.repos.app!, 'feature', { node_modules: canary });
    const report = await docker.evaluate(c.input);
    expect(refusedHead(report)).not.toContain(canary);
    expect(statuses(report, 'base')).toEqual([['host folder invisible', 'passed']]);
  });

  it('an install script that links its output to the host root is refused', async () => {
    const c = await prepareCase({
      name: 'script-link',
      prepare: { run: 'sh prep.sh' },
      base: { 'prep.sh': 'mkdir -p node_modules\n' },
      // (Base's output may be seeded into the head's scratch first: replace it.)
      head: { 'prep.sh': 'rm -rf node_modules && ln -s / node_modules\n' },
      checks: [{ name: 'no docker socket', cmd: 'test ! -e app/node_modules/var/run/docker.sock' }],
    });
    const report = await docker.evaluate(c.input);
    refusedHead(report);
    expect(statuses(report, 'base')).toEqual([['no docker socket', 'passed']]);
  });

  it('an output reached through a linked parent folder neither mounts nor moves the host folder', async () => {
    const canary = await hostCanary('parent');
    docker.track(canary.dir);
    const c = await prepareCase({
      name: 'link-parent',
      prepare: { run: 'true', outputs: ['vendor/deps'] },
      base: { 'vendor/deps/.keep': '' },
      head: {},
      checks: [{ name: 'host folder invisible', cmd: 'test ! -e app/vendor/deps/canary.txt' }],
    });
    // vendor -> the canary's parent, so vendor/deps -> <canary dir> on the host.
    await commitSymlinks(c.repos.app!, 'feature', { vendor: path.dirname(canary.dir) });
    const name = path.basename(canary.dir);
    const suite = {
      ...c.input.suite,
      prepare: { 'acme/app': { ...c.input.suite.prepare['acme/app']!, outputs: [`vendor/${name}`] } },
    };
    const report = await docker.evaluate({ ...c.input, suite });
    await expect(access(canary.file)).resolves.toBeUndefined();
    expect(reportText(report)).not.toContain(canary.secret);
    refusedHead(report);
  });
});

describe('attack: poisoning the dependency cache from a PR head', () => {
  it('a head that changes only its install script never shares its install with base', async () => {
    const c = await prepareCase({
      name: 'poison',
      prepare: { run: 'sh prep.sh', key_files: ['package.json'] },
      base: {
        'package.json': '{"name":"app"}\n',
        'prep.sh': 'mkdir -p node_modules && echo good > node_modules/v\n',
      },
      head: { 'prep.sh': 'mkdir -p node_modules && echo evil > node_modules/v\n' },
      checks: [{ name: 'base dependencies', cmd: 'test "$(cat app/node_modules/v)" = good' }],
    });
    // The PR's state is prepared first (alone), then an evaluation that also runs base.
    const first = await docker.evaluate(c.input, { only: ['full'] });
    expect(first.infraErrors).toEqual([]);
    const report = await docker.evaluate(c.input, { useResultCache: false });
    expect(statuses(report, 'base')).toEqual([['base dependencies', 'passed']]);
    expect(statuses(report, 'full')).toEqual([['base dependencies', 'failed']]);
  });

  it('a key file committed as a link to /dev/zero does not hang or exhaust the host', async () => {
    const c = await prepareCase({
      name: 'key-zero',
      prepare: { run: 'mkdir -p node_modules', key_files: ['package.json'] },
      base: { 'package.json': '{"name":"app"}\n' },
      head: { 'index.js': '1;\n' },
      checks: [{ name: 'ran', cmd: 'true' }],
    });
    // Base's key file is what is read for a key; make base itself the attacker's (a merged PR).
    await commitSymlinks(c.repos.app!, 'main', { 'package.json': '/dev/zero' });
    const report = await docker.evaluate(c.input);
    expect(report.infraErrors).toEqual([]);
    expect(statuses(report, 'base')).toEqual([['ran', 'passed']]);
  });
});
