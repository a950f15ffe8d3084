/**
 * `tandem mine git` on generated histories (JavaScript, Python, Go) whose commits never mention
 * each other: a consumer that bumps its dependency on the producer to the version the producer
 * just tagged or set, and adapts to a symbol the producer renamed, is found as one set — with the
 * producer's release since its previous version as one side, the right bases and a clean
 * test/non-test split by the ecosystem's rules and the repository's own configuration. A third
 * repository's bumps in the same window (an outside package; the producer's version of long ago)
 * are not linked.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BenchInstance, benchInstanceSchema } from '../../src/core/bench-instance.schema.ts';
import { DEFAULT_MIN_SCORE } from '../../src/core/link-score.ts';
import { gitOut } from '../../src/engine/git/git.ts';
import { mineGit } from '../../src/mine/mine-git.ts';
import {
  commitOn,
  createRepo,
  type Files,
  type FixtureRepo,
  makeTempDir,
  removeTempDir,
  revParse,
  tag,
} from '../helpers/git-fixtures.ts';
import { type GitHttpServer, startGitHttpServer } from '../support/git-http-server.ts';

interface Ecosystem {
  lib: Files;
  app: Files;
  tools: Files;
  /** The producer's rename, with its tests. */
  rename: Files;
  /** The producer's release: a version field, and a tag when set. */
  release: { files: Files; tag?: string };
  /** The consumer's bump and adaptation, with its tests. */
  adopt: Files;
  /** The third repository's bumps: an outside package, and the producer's old version. */
  unrelated: Files;
  /** Expected split: paths in the consumer's test patch, and in its gold patch. */
  appTests: string[];
  appCode: string[];
  libTests: string[];
  symbols: string[];
}

const pkg = (o: object) => `${JSON.stringify(o, null, 2)}\n`;

const ECOSYSTEMS: Record<'javascript' | 'python' | 'go', Ecosystem> = {
  javascript: {
    lib: {
      'package.json': pkg({ name: '@acme/lib', version: '1.0.0', scripts: { test: 'node test.js' } }),
      'src/index.js': 'export function loadSettings(file) {\n  return { file };\n}\n',
      'test.js': "import { loadSettings } from './src/index.js';\nloadSettings('a');\n",
      'README.md': '# lib\n',
    },
    app: {
      'package.json': pkg({
        name: 'app',
        scripts: { test: 'node check/run.js' },
        dependencies: { '@acme/lib': '^1.0.0', 'left-pad': '^1.3.0' },
      }),
      'src/main.js':
        "import { loadSettings } from '@acme/lib';\nexport const settings = () => loadSettings('app.json');\n",
      'check/run.js': "import { settings } from '../src/main.js';\nsettings();\n",
      'packages/ui/test.js': "console.log('ui');\n",
    },
    tools: {
      'package.json': pkg({ name: 'tools', dependencies: { '@acme/lib': '^0.9.0', 'left-pad': '^1.1.0' } }),
      'src/tool.js': 'export const tool = 1;\n',
    },
    rename: {
      'src/index.js': 'export function readSettings(file) {\n  return { file, parsed: true };\n}\n',
      'test.js': "import { readSettings } from './src/index.js';\nreadSettings('a');\n",
    },
    release: {
      files: {
        'package.json': pkg({ name: '@acme/lib', version: '2.0.0', scripts: { test: 'node test.js' } }),
      },
      tag: 'v2.0.0',
    },
    adopt: {
      'package.json': pkg({
        name: 'app',
        scripts: { test: 'node check/run.js' },
        dependencies: { '@acme/lib': '^2.0.0', 'left-pad': '^1.3.0' },
      }),
      'src/main.js':
        "import { readSettings } from '@acme/lib';\nexport const settings = () => readSettings('app.json');\n",
      'check/run.js': "import { settings } from '../src/main.js';\nconsole.log(settings().parsed);\n",
      'packages/ui/test.js': "console.log('ui', 2);\n",
    },
    unrelated: {
      'package.json': pkg({ name: 'tools', dependencies: { '@acme/lib': '^1.0.0', 'left-pad': '^1.3.0' } }),
      'src/tool.js': 'export const tool = 2;\n',
    },
    appTests: ['check/run.js', 'packages/ui/test.js'],
    appCode: ['package.json', 'src/main.js'],
    libTests: ['test.js'],
    symbols: ['loadSettings', 'readSettings'],
  },
  python: {
    lib: {
      'pyproject.toml': '[project]\nname = "acme-lib"\nversion = "1.0.0"\n',
      'acme_lib/__init__.py':
        'class Settings:\n    def as_dict(self):\n        return {}\n\n\ndef load_settings(path):\n    return Settings()\n',
      'tests/test_settings.py': 'from acme_lib import load_settings\n',
    },
    app: {
      'pyproject.toml': '[project]\nname = "app"\n\n[tool.pytest.ini_options]\ntestpaths = ["checks"]\n',
      'requirements.txt': 'acme-lib==1.0.0\nrequests==2.31.0\n',
      'app/main.py': 'from acme_lib import load_settings\n\nSETTINGS = load_settings("app.toml")\n',
      'checks/helpers.py': 'def settings_file():\n    return "app.toml"\n',
      'conftest.py': 'import pytest\n',
    },
    tools: {
      'requirements.txt': 'acme-lib>=0.9\nrequests==2.31.0\n',
      'tools/run.py': 'VALUE = 1\n',
    },
    rename: {
      'acme_lib/__init__.py':
        'class Settings:\n    def as_dict(self):\n        return {}\n\n\ndef read_settings(path, strict=False):\n    return Settings()\n',
      'tests/test_settings.py': 'from acme_lib import read_settings\n',
    },
    release: { files: { 'pyproject.toml': '[project]\nname = "acme-lib"\nversion = "2.0.0"\n' } },
    adopt: {
      'requirements.txt': 'acme-lib==2.0.0\nrequests==2.31.0\n',
      'app/main.py':
        'from acme_lib import read_settings\n\nSETTINGS = read_settings("app.toml", strict=True)\n',
      'checks/helpers.py': 'def settings_file():\n    return "strict.toml"\n',
      'conftest.py': 'import pytest\n\npytest_plugins = []\n',
    },
    unrelated: {
      'requirements.txt': 'acme-lib>=1.0\nrequests==2.32.0\n',
      'tools/run.py': 'VALUE = 2\n',
    },
    appTests: ['checks/helpers.py', 'conftest.py'],
    appCode: ['app/main.py', 'requirements.txt'],
    libTests: ['tests/test_settings.py'],
    symbols: ['load_settings', 'read_settings'],
  },
  go: {
    lib: {
      'go.mod': 'module example.com/acme/lib\n\ngo 1.22\n',
      'settings.go':
        'package lib\n\ntype Settings struct{ File string }\n\nfunc LoadSettings(file string) Settings {\n\treturn Settings{File: file}\n}\n',
      'settings_test.go': 'package lib\n',
      'testdata/app.json': '{}\n',
    },
    app: {
      'go.mod':
        'module example.com/acme/app\n\ngo 1.22\n\nrequire (\n\texample.com/acme/lib v1.0.0\n\tgolang.org/x/text v0.14.0\n)\n',
      'main.go':
        'package main\n\nimport lib "example.com/acme/lib"\n\nfunc main() {\n\t_ = lib.LoadSettings("app.json")\n}\n',
      'main_test.go': 'package main\n',
    },
    tools: {
      'go.mod': 'module example.com/acme/tools\n\ngo 1.22\n\nrequire example.com/acme/lib v0.9.0\n',
      'tool.go': 'package tools\n\nconst Version = 1\n',
    },
    rename: {
      'settings.go':
        'package lib\n\ntype Settings struct{ File string }\n\nfunc ReadSettings(file string, strict bool) Settings {\n\treturn Settings{File: file}\n}\n',
      'settings_test.go': 'package lib\n\n// ReadSettings is tested here.\n',
      'testdata/strict.json': '{"strict": true}\n',
    },
    release: { files: {}, tag: 'v1.1.0' },
    adopt: {
      'go.mod':
        'module example.com/acme/app\n\ngo 1.22\n\nrequire (\n\texample.com/acme/lib v1.1.0\n\tgolang.org/x/text v0.14.0\n)\n',
      'main.go':
        'package main\n\nimport lib "example.com/acme/lib"\n\nfunc main() {\n\t_ = lib.ReadSettings("app.json", true)\n}\n',
      'main_test.go': 'package main\n\n// strict settings\n',
      'testdata/strict.json': '{"strict": true}\n',
    },
    unrelated: {
      'go.mod':
        'module example.com/acme/tools\n\ngo 1.22\n\nrequire (\n\texample.com/acme/lib v1.0.0\n\tgolang.org/x/text v0.15.0\n)\n',
      'tool.go': 'package tools\n\nconst Version = 2\n',
    },
    appTests: ['main_test.go', 'testdata/strict.json'],
    appCode: ['go.mod', 'main.go'],
    libTests: ['settings_test.go', 'testdata/strict.json'],
    symbols: ['LoadSettings', 'ReadSettings'],
  },
};

let root: string;
let server: GitHttpServer;
const histories: Record<string, { since: Date; libBase: string; appBase: string; libRelease: string }> = {};

beforeAll(async () => {
  root = await makeTempDir('tandem-mine-coupling-');
  for (const [eco, e] of Object.entries(ECOSYSTEMS)) {
    const repo = (name: string, files: Files) => createRepo(root, `${eco}-${name}`, files);
    const lib = await repo('lib', e.lib);
    const app = await repo('app', e.app);
    const tools: FixtureRepo = await repo('tools', e.tools);
    // History read from after the initial commits: they are the releases of long ago.
    const last = Number(await gitOut(['log', '-1', '--format=%ct'], { cwd: tools.work }));
    const since = new Date((last + 30) * 1000);
    await commitOn(lib, 'main', { 'NOTES.md': 'notes\n' }, 'Tidy notes');
    await commitOn(lib, 'main', e.rename, 'Settings come from any path now');
    const released = await commitOn(lib, 'main', e.release.files, 'Prepare the next version');
    if (e.release.tag) await tag(lib, e.release.tag, released);
    await commitOn(app, 'main', { 'NOTES.md': 'startup logging\n' }, 'Log at startup');
    const appBase = await revParse(app, 'main');
    await commitOn(tools, 'main', e.unrelated, 'Update dependencies');
    await commitOn(app, 'main', e.adopt, 'Upgrade the settings reader');
    await commitOn(app, 'main', { 'NOTES.md': 'later\n' }, 'Later notes');
    histories[eco] = { since, libBase: lib.sha, appBase, libRelease: released };
  }
  server = await startGitHttpServer(root);
});

afterAll(async () => {
  await server?.close();
  await removeTempDir(root);
});

async function mine(eco: string): Promise<{ instances: BenchInstance[]; screened: unknown[] }> {
  const out = path.join(root, `out-${eco}`, 'candidates.jsonl');
  const result = await mineGit({
    repos: ['lib', 'app', 'tools'].map((n) => ({ repo: `acme/${n}`, url: `${server.url}/${eco}-${n}.git` })),
    since: histories[eco]!.since,
    windowMs: 14 * 86_400_000,
    cacheDir: path.join(root, 'cache'),
    out,
    settings: { maxRepos: 5, maxFiles: 40, maxLines: 1500, suite: () => 'suite.yaml' },
  });
  return { instances: result.candidates.map((c) => benchInstanceSchema.parse(c)), screened: result.screened };
}

describe.each(Object.keys(ECOSYSTEMS))('coupling without a textual cue (%s)', (eco) => {
  const e = ECOSYSTEMS[eco as keyof typeof ECOSYSTEMS];

  it('finds the consumer that bumps the producer and adapts to its renamed symbol', async () => {
    const { instances, screened } = await mine(eco);
    expect(screened).toEqual([]);
    expect(instances).toHaveLength(1);
    const [instance] = instances as [BenchInstance];
    expect(instance.repos.map((r) => r.repo)).toEqual(['acme/lib', 'acme/app']);
    const [lib, app] = instance.repos as [BenchInstance['repos'][0], BenchInstance['repos'][0]];
    const h = histories[eco]!;
    // The producer's side: its release since the previous version (the initial commit).
    expect(lib.base_commit).toBe(h.libBase);
    expect(app.base_commit).toBe(h.appBase);
    const files = (patch: string | undefined) =>
      [...(patch ?? '').matchAll(/^diff --git a\/(\S+) /gm)].map((m) => m[1]).sort();
    expect(files(app.test_patch)).toEqual([...e.appTests].sort());
    expect(files(app.patch)).toEqual([...e.appCode].sort());
    expect(files(lib.test_patch)).toEqual([...e.libTests].sort());
    expect(files(lib.patch)).not.toEqual(expect.arrayContaining(e.libTests));

    const links = instance.metadata.links as Array<{
      from: string;
      score: number;
      evidence: Array<Record<string, unknown>>;
    }>;
    expect(links).toHaveLength(1);
    expect(links[0]!.from).toMatch(/^acme\/app@/);
    expect(links[0]!.score).toBeGreaterThanOrEqual(DEFAULT_MIN_SCORE);
    expect(instance.metadata.score).toBe(links[0]!.score);
    const bump = links[0]!.evidence.find((x) => x.kind === 'dependency-bump')!;
    expect(bump).toMatchObject({ release: { how: e.release.tag ? 'tag' : 'version-field' } });
    expect(bump.from).toBeDefined();
    const symbols = links[0]!.evidence.find((x) => x.kind === 'symbols')!;
    expect(symbols).toEqual({ kind: 'symbols', symbols: e.symbols, dependsOnProducer: true });
    const stats = instance.metadata.repositories as Record<string, { commits: string[]; tags: string[] }>;
    expect(stats['acme/lib']!.commits.at(-1)).toBe(h.libRelease);
    expect(stats['acme/lib']!.tags).toEqual(e.release.tag ? [e.release.tag] : []);
    expect(stats['acme/app']!.commits).toHaveLength(1);
  });

  it('leaves the third repository out: its bumps name no version released in the window', async () => {
    const { instances } = await mine(eco);
    expect(instances.flatMap((i) => i.repos.map((r) => r.repo))).not.toContain('acme/tools');
  });
});
