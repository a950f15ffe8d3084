/**
 * Suite `wiring`: what the schema and the case loader accept, and the layout (links, repeated
 * prepared mounts, variables, go.work) it turns into for one configuration.
 */
import { lstat, mkdir, mkdtemp, readlink, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { InputError } from '../../src/core/errors.ts';
import { suiteSchema, type Wiring } from '../../src/core/suite.schema.ts';
import { loadCase } from '../../src/engine/case-loader.ts';
import { ensureMountpoint, prepareMountpoints } from '../../src/engine/wiring/mountpoints.ts';
import {
  goDirective,
  goWorkFile,
  type WiredRepo,
  wiringLayout,
} from '../../src/engine/wiring/wiring-layout.ts';

let root: string;
beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'tandem-wiring-'));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

const group = { name: 't', run: 'true', results: { format: 'tap', path: 't.tap' } };
const suiteWith = (wiring: unknown) => ({ name: 's', image: 'img', tests: [group], wiring });
const wiring = (entries: unknown[]): Wiring[] => suiteSchema.parse(suiteWith(entries)).wiring;

describe('wiring in the suite schema', () => {
  it('accepts the four kinds, scoped npm names and subfolders', () => {
    const parsed = wiring([
      { into: 'acme/api', repo: 'acme/schema', as: 'node', name: '@acme/schema' },
      { into: 'acme/web', repo: 'acme/api', as: 'go', name: 'example.com/acme/api' },
      { into: 'acme/cli', repo: 'acme/core', as: 'python', from: 'src' },
      { into: 'acme/app', repo: 'acme/lib', as: 'path', path: 'vendor/lib' },
    ]);
    expect(parsed.map((w) => w.as)).toEqual(['node', 'go', 'python', 'path']);
  });

  it.each([
    [{ into: 'a/x', repo: 'a/y', as: 'node' }, ['wiring', 0, 'name']],
    [{ into: 'a/x', repo: 'a/y', as: 'node', name: 'Bad Name' }, ['wiring', 0, 'name']],
    [{ into: 'a/x', repo: 'a/y', as: 'path' }, ['wiring', 0, 'path']],
    [{ into: 'a/x', repo: 'a/y', as: 'path', path: '../up' }, ['wiring', 0, 'path']],
    [{ into: 'a/x', repo: 'a/y', as: 'rust' }, ['wiring', 0, 'as']],
    [{ into: 'a/x', repo: 'a/x', as: 'python' }, ['wiring', 0]],
  ])('rejects %j at %j', (entry, at) => {
    const r = suiteSchema.safeParse(suiteWith([entry]));
    expect(r.success).toBe(false);
    expect(r.error!.issues.map((i) => i.path)).toContainEqual(at);
  });

  it('rejects a cycle of consumers and producers', () => {
    const r = suiteSchema.safeParse(
      suiteWith([
        { into: 'a/x', repo: 'a/y', as: 'python' },
        { into: 'a/y', repo: 'a/z', as: 'python' },
        { into: 'a/z', repo: 'a/x', as: 'python' },
      ]),
    );
    expect(r.error?.issues[0]?.message).toMatch(/closes a cycle/);
  });
});

describe('wiring against the case', () => {
  it.each(['into', 'repo'] as const)('an unknown %s is an input error naming the entry', async (field) => {
    const dir = path.join(root, `case-${field}`);
    await mkdir(dir, { recursive: true });
    const entry = { into: 'acme/web', repo: 'acme/api', as: 'node', name: 'api', [field]: 'acme/nope' };
    const file = path.join(dir, 'case.yml');
    await writeFile(
      file,
      YAML.stringify({
        name: 'c',
        suite: suiteWith([entry]),
        targets: [
          { repo: 'acme/api', url: './api', base: 'main', head: 'f' },
          { repo: 'acme/web', url: './web', base: 'main', head: 'f' },
        ],
      }),
    );
    const err = await loadCase(file).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InputError);
    expect((err as InputError).message).toContain(`field "wiring[0].${field}": no repository "acme/nope"`);
  });
});

const nm = (name: string, host = `/cache/${name}`) => ({
  hostPath: host,
  workspacePath: `${name}/node_modules`,
});
const chain: WiredRepo[] = [
  { repo: 'acme/schema', name: 'schema', mounts: [nm('schema')] },
  { repo: 'acme/api', name: 'api', mounts: [nm('api')] },
  { repo: 'acme/web', name: 'web', mounts: [nm('web')] },
];
const chainWiring = wiring([
  { into: 'acme/api', repo: 'acme/schema', as: 'node', name: '@acme/schema' },
  { into: 'acme/web', repo: 'acme/api', as: 'node', name: '@acme/api' },
  { into: 'web', repo: 'schema', as: 'node', name: '@acme/schema', path: 'packages/ui' },
]);

describe('wiringLayout', () => {
  it('links each producer into its consumer and repeats what lies inside the producer (docker)', () => {
    const layout = wiringLayout(chainWiring, chain, true);
    expect(layout.links).toEqual(
      expect.arrayContaining([
        { source: 'schema', target: 'api/node_modules/@acme/schema' },
        { source: 'api', target: 'web/node_modules/@acme/api' },
        { source: 'schema', target: 'web/node_modules/@acme/api/node_modules/@acme/schema' },
        { source: 'schema', target: 'web/packages/ui/node_modules/@acme/schema' },
      ]),
    );
    expect(layout.links).toHaveLength(4);
    expect(layout.readonlyMounts).toEqual(
      expect.arrayContaining([
        { hostPath: '/cache/schema', workspacePath: 'api/node_modules/@acme/schema/node_modules' },
        { hostPath: '/cache/api', workspacePath: 'web/node_modules/@acme/api/node_modules' },
        {
          hostPath: '/cache/schema',
          workspacePath: 'web/node_modules/@acme/api/node_modules/@acme/schema/node_modules',
        },
        {
          hostPath: '/cache/schema',
          workspacePath: 'web/packages/ui/node_modules/@acme/schema/node_modules',
        },
      ]),
    );
    expect(layout.readonlyMounts).toHaveLength(4);
    expect(layout.workspaceEnv).toEqual({});
  });

  it('needs only the direct links when they are symlinks (process sandbox)', () => {
    const layout = wiringLayout(chainWiring, chain, false);
    expect(layout.links.map((l) => l.target)).toEqual([
      'api/node_modules/@acme/schema',
      'web/node_modules/@acme/api',
      'web/packages/ui/node_modules/@acme/schema',
    ]);
    expect(layout.readonlyMounts).toEqual([]);
  });

  it('wires a producer subfolder, python paths and go modules', () => {
    const repos: WiredRepo[] = ['lib', 'app', 'core', 'cli', 'api', 'web'].map((n) => ({
      repo: `acme/${n}`,
      name: n,
      mounts: [],
    }));
    const layout = wiringLayout(
      wiring([
        { into: 'acme/app', repo: 'acme/lib', as: 'path', path: 'vendor/lib', from: 'packages/x' },
        { into: 'acme/cli', repo: 'acme/core', as: 'python', from: 'src' },
        { into: 'acme/web', repo: 'acme/api', as: 'go', name: 'example.com/acme/api', path: 'server' },
      ]),
      repos,
      true,
    );
    expect(layout.links).toEqual([{ source: 'lib/packages/x', target: 'app/vendor/lib' }]);
    expect(layout.workspaceEnv).toEqual({ PYTHONPATH: ['core/src'], GOWORK: ['go.work'] });
    expect(layout.goModules).toEqual(['web/server', 'api']);
  });

  it('writes a go.work at the newest go version its modules ask for', () => {
    expect(goDirective('module example.com/a\n\ngo 1.21.5\n')).toBe('1.21.5');
    expect(goDirective('module example.com/a\n')).toBeUndefined();
    expect(goWorkFile(['web', 'api'], ['1.19', '1.22', '1.21.5'])).toBe(
      'go 1.22\n\nuse (\n\t./web\n\t./api\n)\n',
    );
    expect(goWorkFile(['web'], [])).toMatch(/^go 1\.18\n/);
  });
});

describe('mount points', () => {
  it('replaces links and files on the way instead of following them', async () => {
    const dir = path.join(root, 'mp');
    const outside = path.join(root, 'outside');
    await mkdir(path.join(dir, 'node_modules'), { recursive: true });
    await mkdir(outside, { recursive: true });
    await symlink(outside, path.join(dir, 'node_modules', '@acme'));
    await writeFile(path.join(dir, 'file'), 'x');
    await ensureMountpoint(dir, 'node_modules/@acme/schema');
    await ensureMountpoint(dir, 'file/inner');
    expect((await lstat(path.join(dir, 'node_modules/@acme'))).isDirectory()).toBe(true);
    expect((await lstat(path.join(dir, 'node_modules/@acme/schema'))).isDirectory()).toBe(true);
    expect((await lstat(path.join(dir, 'file/inner'))).isDirectory()).toBe(true);
    await expect(readlink(path.join(outside, 'schema'))).rejects.toThrow();
    await expect(lstat(path.join(outside, 'schema'))).rejects.toThrow();
  });

  it('leaves in a prepared folder only the mount points inside its outputs', async () => {
    const dir = path.join(root, 'prepared');
    await mkdir(path.join(dir, 'packages/x/node_modules'), { recursive: true });
    await prepareMountpoints(
      dir,
      ['packages/x/node_modules'],
      ['packages/x/node_modules/@acme/schema', 'vendor/lib', 'node_modules/other'],
    );
    expect((await lstat(path.join(dir, 'packages/x/node_modules/@acme/schema'))).isDirectory()).toBe(true);
    await expect(lstat(path.join(dir, 'vendor'))).rejects.toThrow();
    await expect(lstat(path.join(dir, 'node_modules'))).rejects.toThrow();
  });
});
