/**
 * The pure words of coupling without a textual cue: manifests read line by line (dependency
 * moves, own name and version), versions as ranges and tags say them, link scores, declarations
 * in Python, Go and JS/TS, and the links `couplingLinks` draws (or refuses to draw).
 */
import { describe, expect, it } from 'vitest';
import {
  manifestChange,
  manifestEntries,
  manifestPackage,
  normalPackageName,
} from '../../src/core/dependency-manifests.ts';
import { DEFAULT_MIN_SCORE, linkScore, symbolsWeight } from '../../src/core/link-score.ts';
import { pseudoVersionCommit, sameVersion, versionOfTag } from '../../src/core/version-ranges.ts';
import { changeFacts } from '../../src/mine/change-facts.ts';
import { type CouplingUnit, couplingLinks, type ReleaseMark } from '../../src/mine/coupling.ts';
import { declarationChanges, declarationsIn } from '../../src/mine/declarations.ts';
import { packageIndex } from '../../src/mine/package-index.ts';

describe('manifests', () => {
  it('package.json: a range moved, the own version set; scripts are no dependencies', () => {
    const change = manifestChange(
      'package.json',
      ['  "version": "1.0.0",', '    "@acme/lib": "^1.2.0",'],
      [
        '  "version": "1.1.0",',
        '    "@acme/lib": "^2.0.0",',
        '    "left-pad": "~1.3.0"',
        '    "test": "node test.js",',
      ],
    );
    expect(change).toEqual({
      version: '1.1.0',
      moves: [
        { ecosystem: 'npm', file: 'package.json', name: '@acme/lib', from: '^1.2.0', to: '^2.0.0' },
        { ecosystem: 'npm', file: 'package.json', name: 'left-pad', to: '~1.3.0' },
      ],
    });
  });
  it('go.mod: require lines in and out of blocks, replace with a version or a path', () => {
    expect(
      manifestEntries('go.mod', [
        'module example.com/app',
        '\texample.com/acme/lib v1.1.0 // indirect',
        'require golang.org/x/text v0.14.0',
        'replace example.com/acme/lib => example.com/fork/lib v1.2.0',
        'replace example.com/acme/b v1.0.0 => ../b',
      ]),
    ).toEqual([
      { ecosystem: 'go', kind: 'name', name: 'module', value: 'example.com/app' },
      { ecosystem: 'go', kind: 'dependency', name: 'example.com/acme/lib', value: 'v1.1.0' },
      { ecosystem: 'go', kind: 'dependency', name: 'golang.org/x/text', value: 'v0.14.0' },
      { ecosystem: 'go', kind: 'dependency', name: 'example.com/acme/lib', value: 'v1.2.0' },
      { ecosystem: 'go', kind: 'dependency', name: 'example.com/acme/b', value: '../b' },
    ]);
  });
  it('requirements*.txt, pyproject (PEP 621 and Poetry), setup.cfg pins', () => {
    expect(
      manifestEntries('requirements-dev.txt', [
        'acme-lib[extra]==2.0.0 ; python_version > "3.8"',
        '-r base.txt',
        '# acme-lib==1',
      ]),
    ).toEqual([{ ecosystem: 'python', kind: 'dependency', name: 'acme-lib', value: '==2.0.0' }]);
    expect(
      manifestEntries('pyproject.toml', [
        'name = "acme-app"',
        'version = "0.3.0"',
        '  "acme-lib>=2.0,<3",',
        'acme_util = { version = "^1.4" }',
        'requires = ["setuptools>=61"]',
        'python = "^3.9"',
      ]),
    ).toEqual([
      { ecosystem: 'python', kind: 'name', name: 'name', value: 'acme-app' },
      { ecosystem: 'python', kind: 'version', name: 'version', value: '0.3.0' },
      { ecosystem: 'python', kind: 'dependency', name: 'acme-lib', value: '>=2.0,<3' },
      { ecosystem: 'python', kind: 'dependency', name: 'acme_util', value: '^1.4' },
    ]);
    expect(
      manifestChange('setup.cfg', ['    acme-lib>=1.0'], ['    acme-lib>=2.0', 'python_requires = >=3.8'])
        .moves,
    ).toEqual([{ ecosystem: 'python', file: 'setup.cfg', name: 'acme-lib', from: '>=1.0', to: '>=2.0' }]);
  });
  it('the package a manifest publishes, in its normal form', () => {
    expect(manifestPackage('packages/a/package.json', '{"name":"@acme/a"}')).toEqual({
      ecosystem: 'npm',
      name: '@acme/a',
    });
    expect(manifestPackage('go.mod', 'module example.com/acme/lib/v2\n')).toEqual({
      ecosystem: 'go',
      name: 'example.com/acme/lib/v2',
    });
    expect(normalPackageName('go', 'example.com/acme/lib/v2')).toBe('example.com/acme/lib');
    expect(normalPackageName('python', 'Acme_Lib.Core')).toBe('acme-lib-core');
    expect(manifestPackage('package.json', 'not json')).toBeUndefined();
  });
});

describe('versions', () => {
  // Ranges' lower bounds: test/unit/version-ranges.test.ts.
  it('one release however written; tags with a package name; Go pseudo-versions name a commit', () => {
    expect(sameVersion('v2.0', '2.0.0')).toBe(true);
    expect(sameVersion('2.0.1', '2.0.0')).toBe(false);
    expect(versionOfTag('v2.0.0')).toEqual({ version: '2.0.0' });
    expect(versionOfTag('@acme/lib@2.1.0')).toEqual({ version: '2.1.0', name: '@acme/lib' });
    expect(versionOfTag('lib-v1.2')).toEqual({ version: '1.2.0', name: 'lib' });
    expect(versionOfTag('release-candidate')).toBeUndefined();
    expect(pseudoVersionCommit('v0.0.0-20240102150405-abcdef123456')).toBe('abcdef123456');
    expect(pseudoVersionCommit('v1.2.3')).toBeUndefined();
  });
});

describe('scores', () => {
  it('cues add up without passing 1; one shared symbol alone stays below the default', () => {
    expect(linkScore([{ kind: 'depends-on', target: 'a/b#1', text: '' }])).toBe(1);
    expect(symbolsWeight(1, false)).toBeLessThan(DEFAULT_MIN_SCORE);
    expect(symbolsWeight(1, true)).toBeGreaterThanOrEqual(DEFAULT_MIN_SCORE);
    expect(symbolsWeight(3, false)).toBeGreaterThanOrEqual(DEFAULT_MIN_SCORE);
    const bump = {
      kind: 'dependency-bump' as const,
      package: 'p',
      file: 'package.json',
      to: '^2',
      release: { how: 'tag' as const, name: 'v2' },
    };
    expect(linkScore([bump])).toBe(0.8);
    expect(linkScore([bump, { kind: 'symbols', symbols: ['a', 'b'], dependsOnProducer: true }])).toBe(0.94);
  });
});

describe('declarations', () => {
  it('Python: functions, classes and their methods, public names only', () => {
    const src =
      'class Client:\n    def fetch(self, url):\n        pass\n    def _hidden(self):\n        pass\n\ndef connect(host, port=80):\n    return Client()\n\ndef _private():\n    pass\n';
    expect(declarationsIn('a.py', src.split('\n')).map((d) => [d.name, d.kind, d.signature])).toEqual([
      ['Client', 'Class', 'class Client'],
      ['Client.fetch', 'Method', 'def fetch(self, url)'],
      ['connect', 'Function', 'def connect(host, port=80)'],
    ]);
    // A diff hunk: a method without its class in sight keeps its own name.
    expect(declarationsIn('a.py', ['    def fetch(self, url, timeout=5):']).map((d) => d.name)).toEqual([
      'fetch',
    ]);
  });
  it('Go: exported functions, methods, types, constants and variables', () => {
    const src =
      'package lib\n\ntype Client struct{}\n\nfunc (c *Client) Fetch(url string) error {\n\treturn nil\n}\n\nfunc New() *Client { return nil }\n\nfunc helper() {}\n\nconst (\n\tMaxRetries = 3\n\tminWait = 1\n)\n\nvar Default = New()\n';
    expect(declarationsIn('lib.go', src.split('\n')).map((d) => `${d.kind} ${d.name}`)).toEqual([
      'Type Client',
      'Method Client.Fetch',
      'Function New',
      'Constant MaxRetries',
      'Variable Default',
    ]);
  });
  it('JS/TS exports, CommonJS included', () => {
    const lines = [
      'export async function load(a) {',
      'export default class Store {',
      'exports.parseAll = () => 1;',
      'export { a as renamed, b };',
      'module.exports = { one, two: 2 };',
    ];
    expect(declarationsIn('x.js', lines).map((d) => d.name)).toEqual([
      'load',
      'Store',
      'parseAll',
      'renamed',
      'b',
      'one',
      'two',
    ]);
  });
  it('changed and added declarations between two versions of a Python or Go file', () => {
    expect(
      declarationChanges(
        'a.py',
        'def load(path):\n    pass\n',
        'def load(path, strict=False):\n    pass\n\ndef save(x):\n    pass\n',
      ).map((d) => `${d.change} ${d.name}`),
    ).toEqual(['changed load', 'added save']);
  });
});

describe('couplingLinks', () => {
  const DAY = 86_400_000;
  const unit = (
    id: string,
    at: number,
    files: Array<{ path: string; added?: string[]; removed?: string[] }>,
  ): CouplingUnit => ({
    id,
    repo: id.split('@')[0]!,
    sha: id.split('@')[1]!.padEnd(40, '0'),
    at,
    facts: changeFacts(files.map((f) => ({ path: f.path, added: f.added ?? [], removed: f.removed ?? [] }))),
  });
  const index = packageIndex([
    { repo: 'acme/lib', files: [{ path: 'package.json', text: '{"name":"@acme/lib"}' }] },
    {
      repo: 'acme/app',
      files: [{ path: 'package.json', text: '{"name":"app","dependencies":{"@acme/lib":"^2.0.0"}}' }],
    },
    { repo: 'acme/other', files: [{ path: 'package.json', text: '{"name":"other"}' }] },
  ]);
  const lib = [
    unit('acme/lib@a1', -30 * DAY, [{ path: 'src/old.js', added: ['export function oldThing() {}'] }]),
    unit('acme/lib@a2', 2 * DAY, [
      {
        path: 'src/index.js',
        added: ['export function readConfig(p) {'],
        removed: ['export function loadConfig(p) {'],
      },
    ]),
    unit('acme/lib@a3', 3 * DAY, [
      { path: 'package.json', added: ['  "version": "2.0.0",'], removed: ['  "version": "1.0.0",'] },
    ]),
  ];
  const marks: ReleaseMark[] = [
    { repo: 'acme/lib', unitId: 'acme/lib@a1', at: -30 * DAY, version: '1.0.0', how: 'tag', name: 'v1.0.0' },
    {
      repo: 'acme/lib',
      unitId: 'acme/lib@a3',
      at: 3 * DAY,
      version: '2.0.0',
      how: 'version-field',
      name: 'package.json',
    },
  ];

  it('a bump joins the release since the previous version, with the symbols it adapts to', () => {
    const app = unit('acme/app@b1', 4 * DAY, [
      { path: 'package.json', added: ['    "@acme/lib": "^2.0.0"'], removed: ['    "@acme/lib": "^1.0.0"'] },
      {
        path: 'src/main.js',
        added: ['const c = readConfig(path);'],
        removed: ['const c = loadConfig(path);'],
      },
    ]);
    const [link, ...more] = couplingLinks([...lib, app], marks, index, 14 * DAY);
    expect(more).toEqual([]);
    expect(link).toMatchObject({ from: 'acme/app@b1', to: ['acme/lib@a2', 'acme/lib@a3'], score: 0.94 });
    expect(link!.evidence[1]).toEqual({
      kind: 'symbols',
      symbols: ['loadConfig', 'readConfig'],
      dependsOnProducer: true,
    });
  });
  it('no link for a bump to a version made outside the window, of an outside package, or of its own', () => {
    const late = unit('acme/app@b2', 40 * DAY, [
      { path: 'package.json', added: ['    "@acme/lib": "^2.0.0"'], removed: ['    "@acme/lib": "^1.0.0"'] },
    ]);
    const outside = unit('acme/other@c1', 4 * DAY, [
      { path: 'package.json', added: ['    "left-pad": "^1.3.0"'], removed: ['    "left-pad": "^1.1.0"'] },
    ]);
    const old = unit('acme/other@c2', 4 * DAY, [
      { path: 'package.json', added: ['    "@acme/lib": "^1.0.0"'], removed: ['    "@acme/lib": "^0.9.0"'] },
    ]);
    expect(couplingLinks([...lib, late, outside, old], marks, index, 14 * DAY)).toEqual([]);
  });
  it('a shared common name does not link; one distinctive symbol without a dependency scores below the default', () => {
    const other = unit('acme/other@c3', 2 * DAY, [{ path: 'src/x.js', added: ['init(); readConfig(x);'] }]);
    const [link] = couplingLinks([...lib, other], marks, index, 14 * DAY);
    expect(link!.evidence).toEqual([{ kind: 'symbols', symbols: ['readConfig'], dependsOnProducer: false }]);
    expect(link!.score).toBeLessThan(DEFAULT_MIN_SCORE);
  });
  it('a Go pseudo-version names the producer commit itself', () => {
    const goIndex = packageIndex([
      { repo: 'acme/lib', files: [{ path: 'go.mod', text: 'module example.com/acme/lib\n' }] },
    ]);
    const prod = unit('acme/lib@abcdef123456', DAY, [{ path: 'lib.go', added: ['func Fetch() {}'] }]);
    const cons = unit('acme/app@d1', 2 * DAY, [
      {
        path: 'go.mod',
        added: ['\texample.com/acme/lib v0.0.0-20240102150405-abcdef123456'],
        removed: ['\texample.com/acme/lib v0.0.0-20231201000000-0123456789ab'],
      },
    ]);
    const [link] = couplingLinks([prod, cons], [], goIndex, 14 * DAY);
    expect(link).toMatchObject({
      to: ['acme/lib@abcdef123456'],
      evidence: [{ kind: 'dependency-bump', release: { how: 'commit', name: 'abcdef123456' } }],
    });
  });
});
