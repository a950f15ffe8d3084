/**
 * Suite `wiring` through the whole engine in real Docker: a chain of three npm repositories
 * (web uses api and schema, api uses schema), each prepared with `npm install` (offline: the
 * only dependency is a local `file:` package), every consumer wired to its producers. In all
 * eight configurations each consumer must see its producers in that configuration's state, and
 * a producer's own prepared dependencies must resolve from inside the wired path.
 */
import { existsSync } from 'node:fs';
import { symlink } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { InputError } from '../../src/core/errors.ts';
import type { Report } from '../../src/core/report.schema.ts';
import { git } from '../../src/engine/git/git.ts';
import { dockerSuite } from '../helpers/docker-suite.ts';
import { SANDBOX_IMAGE, shellCase, shellGroup, tapScript } from '../helpers/example-cases.ts';
import type { FixtureRepo } from '../helpers/git-fixtures.ts';

const docker = dockerSuite('engine-wiring');

const npmInstall = 'npm install --offline --install-links --no-audit --no-fund --loglevel=error';
const prepare = { run: npmInstall, key_files: ['package.json'] };

/** `node -e` in a repository folder; ESM with `esm`. Exits 0 when `expr` is true. */
const nodeCheck = (dir: string, expr: string, esm = false) =>
  `cd ${dir} && node ${esm ? '--input-type=module ' : ''}-e '${expr}'`;
const stateOf = (repo: string) =>
  `require("node:fs").readFileSync(process.env.TANDEM_WORKSPACE + "/${repo}/STATE", "utf8").trim()`;
const stateOfEsm = (repo: string) =>
  `(await import("node:fs")).readFileSync(process.env.TANDEM_WORKSPACE + "/${repo}/STATE", "utf8").trim()`;

const checks = [
  {
    name: 'api requires the schema of this configuration',
    cmd: nodeCheck('api', `process.exit(require("@acme/schema").level === ${stateOf('schema')} ? 0 : 1)`),
  },
  {
    name: 'web imports the schema of this configuration through its exports map',
    cmd: nodeCheck(
      'web',
      `import { level } from "@acme/schema"; process.exit(level === ${stateOfEsm('schema')} ? 0 : 1)`,
      true,
    ),
  },
  {
    name: 'web imports the api of this configuration (no exports map), which sees the same schema',
    cmd: nodeCheck(
      'web',
      `import api from "@acme/api"; process.exit(api.describe() === ${stateOfEsm('api')} + "/" + ${stateOfEsm('schema')} ? 0 : 1)`,
      true,
    ),
  },
  {
    name: "the schema's own prepared dependency resolves from inside the wired path",
    cmd: nodeCheck('web', 'process.exit(require("@acme/schema").tiny === "tiny-from-tarball" ? 0 : 1)'),
  },
  {
    name: 'the wired path is the checkout itself, not a copy',
    cmd: 'echo probe > web/node_modules/@acme/api/PROBE && test "$(cat api/PROBE)" = probe',
  },
  {
    name: "the consumer's prepared node_modules stays read-only",
    cmd: '! touch web/node_modules/.written 2>/dev/null',
  },
];

const pkg = (name: string, extra: object = {}) => `${JSON.stringify({ name, version: '1.0.0', ...extra })}\n`;

describe('wiring a chain of three npm repositories', () => {
  let report: Report;

  beforeAll(async () => {
    const c = await shellCase({
      name: 'wired-chain',
      repos: [
        {
          name: 'schema',
          base: {
            'package.json': pkg('@acme/schema', {
              main: 'index.js',
              exports: { '.': { import: './index.mjs', require: './index.js' } },
              dependencies: { tiny: 'file:vendor/tiny' },
            }),
            'index.js':
              'exports.level = require("node:fs").readFileSync(__dirname + "/STATE", "utf8").trim();\nexports.tiny = require("tiny");\n',
            'index.mjs': 'import cjs from "./index.js";\nexport const level = cjs.level;\n',
            STATE: 'base\n',
            'vendor/tiny/package.json': pkg('tiny', { main: 'main.js' }),
            'vendor/tiny/main.js': 'module.exports = "tiny-from-tarball";\n',
          },
          head: { STATE: 'head\n' },
        },
        {
          name: 'api',
          base: {
            'package.json': pkg('@acme/api', { main: 'index.js' }),
            'index.js':
              'const state = require("node:fs").readFileSync(__dirname + "/STATE", "utf8").trim();\nexports.describe = () => state + "/" + require("@acme/schema").level;\n',
            STATE: 'base\n',
          },
          head: { STATE: 'head\n' },
        },
        {
          name: 'web',
          base: { 'package.json': pkg('web', { private: true }), STATE: 'base\n' },
          head: { STATE: 'head\n' },
        },
      ],
      suite: {
        name: 'wired-chain-suite',
        image: SANDBOX_IMAGE,
        prepare: { 'acme/schema': prepare, 'acme/api': prepare, 'acme/web': prepare },
        wiring: [
          { into: 'acme/api', repo: 'acme/schema', as: 'node', name: '@acme/schema' },
          { into: 'acme/web', repo: 'acme/api', as: 'node', name: '@acme/api' },
          { into: 'acme/web', repo: 'acme/schema', as: 'node', name: '@acme/schema' },
        ],
        tests: [shellGroup('wired')],
      },
      hidden: { 'hidden/wired.sh': tapScript('wired.tap', checks) },
    });
    docker.track(c.root);
    report = await docker.evaluate(c.input);
  }, 300_000);

  it('runs every configuration of the full matrix', () => {
    expect(report.infraErrors).toEqual([]);
    expect(report.configurations).toHaveLength(8);
  });

  it('shows each consumer its producers in the state of that configuration', () => {
    const failing = report.configurations.flatMap((cfg) =>
      cfg.tests.filter((t) => t.status !== 'passed').map((t) => `${cfg.id}: ${t.id} ${t.status}`),
    );
    expect(failing).toEqual([]);
    for (const cfg of report.configurations) expect(cfg.tests).toHaveLength(checks.length);
  });
});

describe('wiring a monorepo package at a path', () => {
  it('mounts the producer subfolder of this configuration, replacing a committed link on the way', async () => {
    const c = await shellCase({
      name: 'wired-path',
      repos: [
        {
          name: 'lib',
          base: { 'packages/x/VERSION': 'base\n', STATE: 'base\n' },
          head: { 'packages/x/VERSION': 'head\n', STATE: 'head\n' },
        },
        // A committed link where the mount goes: replaced in the private workspace, never followed.
        { name: 'app', base: { 'app.txt': 'app\n' }, head: { 'feature.txt': 'on\n' } },
      ],
      suite: {
        name: 'wired-path-suite',
        image: SANDBOX_IMAGE,
        setup: [],
        wiring: [{ into: 'acme/app', repo: 'acme/lib', as: 'path', path: 'vendor/lib', from: 'packages/x' }],
        tests: [shellGroup('path')],
      },
      hidden: {
        'hidden/path.sh': tapScript('path.tap', [
          {
            name: 'sees the state of this configuration',
            cmd: 'test "$(cat app/vendor/lib/VERSION)" = "$(cat lib/STATE)"',
          },
          { name: 'is the checkout folder', cmd: 'echo w > app/vendor/lib/W && test -f lib/packages/x/W' },
        ]),
      },
    });
    docker.track(c.root);
    await symlinkInRepo(c.repos.app!, 'vendor', '/etc');
    const report = await docker.evaluate(c.input);
    expect(report.infraErrors).toEqual([]);
    expect(report.configurations).toHaveLength(4);
    const failing = report.configurations.flatMap((cfg) =>
      cfg.tests.filter((t) => t.status !== 'passed').map((t) => `${cfg.id}: ${t.id}`),
    );
    expect(failing).toEqual([]);
    expect(existsSync('/etc/lib')).toBe(false);
    // The process sandbox (development) wires with symlinks, the same way round.
    const unsandboxed = await docker.evaluate(c.input, { sandbox: 'process', useResultCache: false });
    expect(unsandboxed.infraErrors).toEqual([]);
    expect(
      unsandboxed.configurations.flatMap((cfg) => cfg.tests.filter((t) => t.status !== 'passed')),
    ).toEqual([]);
    expect(existsSync('/etc/lib')).toBe(false);
  });
});

describe('wiring names checked against the producers', () => {
  it("is an input error when a node entry's name is not the producer's package name", async () => {
    const c = await shellCase({
      name: 'wired-typo',
      repos: [
        { name: 'schema', base: { 'package.json': pkg('@acme/schema') }, head: { 'x.txt': 'x\n' } },
        { name: 'api', base: { 'package.json': pkg('@acme/api') }, head: { 'x.txt': 'x\n' } },
      ],
      suite: {
        name: 'wired-typo-suite',
        image: SANDBOX_IMAGE,
        wiring: [{ into: 'acme/api', repo: 'acme/schema', as: 'node', name: '@acme/schmea' }],
        tests: [shellGroup('t')],
      },
      hidden: { 'hidden/t.sh': tapScript('t.tap', [{ name: 'ran', cmd: 'true' }]) },
    });
    docker.track(c.root);
    const err = await docker.evaluate(c.input).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InputError);
    expect((err as InputError).message).toContain(
      `field "wiring[0].name": acme/schema's package.json names "@acme/schema", not "@acme/schmea"`,
    );
  });
});

/** Commits a symbolic link `name -> target` on main and feature of a fixture repository. */
async function symlinkInRepo(repo: FixtureRepo, name: string, target: string): Promise<void> {
  const cwd = repo.work;
  for (const branch of ['main', 'feature']) {
    await git(['checkout', '--quiet', branch], { cwd });
    await symlink(target, path.join(cwd, name));
    await git(['add', name], { cwd });
    await git(['-c', 'user.name=t', '-c', 'user.email=t@e.example', 'commit', '-qm', 'link'], { cwd });
    await git(['push', '--quiet', 'origin', `HEAD:refs/heads/${branch}`], { cwd });
  }
}
