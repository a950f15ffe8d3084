import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { InputError } from '../../src/core/errors.ts';
import { loadCase, loadSuiteFile } from '../../src/engine/case-loader.ts';

let root: string;
let n = 0;

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'tandem-case-loader-'));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

/** A fresh case directory holding the given files (objects are written as YAML or JSON by extension). */
async function dirWith(files: Record<string, unknown>): Promise<string> {
  const dir = path.join(root, `case-${++n}`);
  for (const [name, content] of Object.entries(files)) {
    const file = path.join(dir, name);
    await mkdir(path.dirname(file), { recursive: true });
    const text =
      typeof content === 'string'
        ? content
        : name.endsWith('.json')
          ? JSON.stringify(content, null, 2)
          : YAML.stringify(content);
    await writeFile(file, text);
  }
  return dir;
}

const suite = {
  name: 'user-field',
  image: 'tandem/sandbox:node20',
  prepare: { 'acme/api': { run: 'npm ci' }, web: { run: ['npm ci', 'npm run build'] } },
  setup: [{ run: 'true' }],
  tests: [
    {
      name: 'api',
      repo: 'acme/api',
      files: ['hidden/api'],
      run: 'npm test',
      results: { format: 'junit', path: 'api.xml' },
    },
    { name: 'web', repo: 'web', run: 'npm test', results: { format: 'tap', path: 'web.tap' }, timeout: 60 },
  ],
};

const targets = [
  { repo: 'acme/api', url: './repos/api', base: 'main', head: 'feature/user-field' },
  {
    repo: 'acme/web',
    url: 'https://github.com/acme/web.git',
    base: 'main',
    head: 'feature/user-field',
    merge: true,
  },
];

function caseWith(overrides: Record<string, unknown> = {}) {
  return { name: 'add a user field', suite: 'suites/suite.yaml', targets, ...overrides };
}

async function loadError(file: string): Promise<InputError> {
  try {
    await loadCase(file);
  } catch (err) {
    expect(err).toBeInstanceOf(InputError);
    return err as InputError;
  }
  throw new Error(`expected ${file} to be rejected`);
}

/** A case file that fails to load, and what its InputError says besides naming the file. */
interface CaseFileError {
  /** The case file's content: an object written as YAML or JSON, or raw text. */
  content: unknown;
  /** The case file's name; its extension picks the format. Default `case.yaml`. */
  name?: string;
  field?: string;
  /** Strings the message contains and patterns it matches. */
  says?: Array<string | RegExp>;
  /** The error is about the suite against the case: its message names the suite, not the case file path. */
  suiteError?: boolean;
}

describe('loadCase: valid cases', () => {
  it('YAML case with a suite path, relative to the case file', async () => {
    const dir = await dirWith({ 'case.yaml': caseWith(), 'suites/suite.yaml': suite });
    const input = await loadCase(path.join(dir, 'case.yaml'));
    expect(input.caseDir).toBe(dir);
    expect(input.suiteDir).toBe(path.join(dir, 'suites'));
    expect(input.caseFile.name).toBe('add a user field');
    expect(input.caseFile.context).toEqual([]);
    expect(input.caseFile.targets[0]).toEqual({
      repo: 'acme/api',
      url: path.join(dir, 'repos/api'),
      base: 'main',
      head: 'feature/user-field',
      merge: false,
    });
    expect(input.caseFile.targets[1]).toMatchObject({ url: 'https://github.com/acme/web.git', merge: true });
    // Suite defaults are filled in.
    expect(input.suite.tests[0]?.timeout).toBe(300);
    expect(input.suite.tests[1]?.files).toEqual([]);
    expect(input.suite.prepare['acme/api']).toMatchObject({
      run: 'npm ci',
      outputs: ['node_modules'],
      timeout: 900,
    });
    expect(input.suite.limits).toEqual({ memory: '1g', cpus: 1, pids: 512, configuration_timeout: 1800 });
  });

  it('JSON case with an inline suite; the suite dir is the case dir', async () => {
    const dir = await dirWith({ 'case.json': caseWith({ suite }) });
    const input = await loadCase(path.join(dir, 'case.json'));
    expect(input.suiteDir).toBe(dir);
    expect(input.suite.name).toBe('user-field');
    expect(input.suite.tests.map((t) => t.name)).toEqual(['api', 'web']);
  });

  it('JSON suite file referenced from a YAML case', async () => {
    const dir = await dirWith({ 'case.yml': caseWith({ suite: 'suite.json' }), 'suite.json': suite });
    const input = await loadCase(path.join(dir, 'case.yml'));
    expect(input.suite.tests).toHaveLength(2);
  });

  it('resolves relative urls against the case dir, not the working directory', async () => {
    const dir = await dirWith({
      'nested/case.yaml': caseWith({
        suite: '../suites/suite.yaml',
        targets: [
          { repo: 'acme/api', url: '../repos/api', base: 'main', head: 'f' },
          { repo: 'acme/web', url: 'http://127.0.0.1:8080/acme/web.git', base: 'main', head: 'f' },
          { repo: 'acme/cli', url: 'git@github.com:acme/cli.git', base: 'main', head: 'f' },
          { repo: 'acme/lib', url: 'file:///srv/git/lib.git', base: 'main', head: 'f' },
          { repo: 'acme/abs', url: '/srv/git/abs.git', base: 'main', head: 'f' },
        ],
        context: [{ repo: 'acme/shared', url: 'repos/shared', ref: 'v1.2.0' }],
      }),
      'suites/suite.yaml': { ...suite, prepare: {} },
    });
    const input = await loadCase(path.relative(process.cwd(), path.join(dir, 'nested/case.yaml')));
    expect(input.caseFile.targets.map((t) => t.url)).toEqual([
      path.join(dir, 'repos/api'),
      'http://127.0.0.1:8080/acme/web.git',
      'git@github.com:acme/cli.git',
      'file:///srv/git/lib.git',
      '/srv/git/abs.git',
    ]);
    expect(input.caseFile.context).toEqual([
      { repo: 'acme/shared', url: path.join(dir, 'nested/repos/shared'), ref: 'v1.2.0' },
    ]);
    expect(input.caseDir).toBe(path.join(dir, 'nested'));
  });

  it('a patch target whose patch file exists', async () => {
    const dir = await dirWith({
      'case.yaml': caseWith({
        targets: [{ repo: 'acme/api', url: './api', base: 'main', patch: 'patches/api.diff' }],
      }),
      'patches/api.diff': '--- a/x\n+++ b/x\n',
      'suites/suite.yaml': { ...suite, prepare: {}, tests: [suite.tests[0]] },
    });
    const input = await loadCase(path.join(dir, 'case.yaml'));
    expect(input.caseFile.targets[0]).toEqual({
      repo: 'acme/api',
      url: path.join(dir, 'api'),
      base: 'main',
      patch: 'patches/api.diff',
    });
  });

  it('prepare and test repos may name a context repository, by full or short name', async () => {
    const dir = await dirWith({
      'case.yaml': caseWith({
        context: [{ repo: 'acme/shared', url: './shared', ref: 'main' }],
        suite: {
          ...suite,
          prepare: { shared: { run: 'npm ci' } },
          tests: [{ ...suite.tests[0], repo: 'acme/shared' }],
        },
      }),
    });
    const input = await loadCase(path.join(dir, 'case.yaml'));
    expect(Object.keys(input.suite.prepare)).toEqual(['shared']);
  });
});

describe('loadCase: errors name the file and the field', () => {
  it.each<[string, CaseFileError]>([
    [
      'targets[1].base empty',
      {
        content: caseWith({ suite, targets: [targets[0], { ...targets[1], base: '' }] }),
        field: 'targets[1].base',
        says: ['"targets[1].base"', /branch, tag or commit SHA/],
      },
    ],
    [
      'a target with neither head nor patch',
      {
        content: caseWith({ suite, targets: [{ repo: 'acme/api', url: '.', base: 'main' }] }),
        field: 'targets[0]',
        says: [/\{repo, url, base, head\} or \{repo, url, base, patch\}/],
      },
    ],
    [
      'tests[0].results.format in an inline suite names suite.tests[0].results.format',
      {
        content: caseWith({
          suite: { ...suite, tests: [{ ...suite.tests[0], results: { format: 'xunit', path: 'a.xml' } }] },
        }),
        field: 'suite.tests[0].results.format',
      },
    ],
    [
      'an unknown key at the top of the case',
      { content: caseWith({ suite, extra: true }), says: [/"extra"/] },
    ],
    [
      'an unknown key in a target names the target and the key',
      {
        content: caseWith({ suite, targets: [{ ...targets[0], bogus: 1 }] }),
        field: 'targets[0]',
        says: [/"bogus"/],
      },
    ],
    [
      'a prepare key naming an unknown repository',
      {
        content: caseWith({ suite: { ...suite, prepare: { 'acme/nope': { run: 'npm ci' } } } }),
        field: 'prepare.acme/nope',
        says: ['"prepare.acme/nope"', 'acme/api, acme/web'],
        suiteError: true,
      },
    ],
    [
      'a test group naming an unknown repository',
      {
        content: caseWith({
          suite: { ...suite, tests: [suite.tests[0], { ...suite.tests[1], repo: 'acme/other' }] },
        }),
        field: 'tests[1].repo',
        suiteError: true,
      },
    ],
    [
      'two repositories mapping to the same workspace folder',
      {
        content: caseWith({ suite, context: [{ repo: 'other/api', url: './other', ref: 'main' }] }),
        field: 'context[0].repo',
        says: [/"other\/api" would share the workspace folder "api" with "acme\/api"/],
      },
    ],
    [
      'two targets mapping to the same workspace folder',
      {
        content: caseWith({ suite, targets: [targets[0], { ...targets[1], repo: 'fork/api' }] }),
        field: 'targets[1].repo',
      },
    ],
    [
      'bad YAML names the file and where',
      {
        content: 'name: x\ntargets: [ { repo: a\n  suite: : :\n',
        says: [/not valid YAML\/JSON/, /line \d+/],
      },
    ],
    [
      'bad JSON names the file',
      { content: '{"name": "x", "targets": [', name: 'case.json', says: [/not valid YAML\/JSON/] },
    ],
    [
      'no targets',
      { content: caseWith({ suite, targets: [] }), field: 'targets', says: [/at least one target/] },
    ],
  ])('%s', async (_title, { content, name = 'case.yaml', field, says = [], suiteError = false }) => {
    const file = path.join(await dirWith({ [name]: content }), name);
    const err = await loadError(file);
    expect(err.file).toBe(file);
    // A suite that does not fit the case is named by the suite, not the case file's path.
    if (!suiteError) expect(err.message).toContain(file);
    if (field !== undefined) expect(err.field).toBe(field);
    for (const part of says) {
      if (typeof part === 'string') expect(err.message).toContain(part);
      else expect(err.message).toMatch(part);
    }
  });

  it('tests[0].results.format in a suite file names the suite file', async () => {
    const dir = await dirWith({
      'case.yaml': caseWith(),
      'suites/suite.yaml': {
        ...suite,
        tests: [{ ...suite.tests[0], results: { format: 'xunit', path: 'a.xml' } }],
      },
    });
    const err = await loadError(path.join(dir, 'case.yaml'));
    expect(err.file).toBe(path.join(dir, 'suites/suite.yaml'));
    expect(err.field).toBe('tests[0].results.format');
    expect(err.message).toContain(path.join(dir, 'suites/suite.yaml'));
    expect(err.message).toMatch(/junit/);
  });

  it('an unknown key in a suite file', async () => {
    const dir = await dirWith({ 'suite.yaml': { ...suite, imagee: 'x' } });
    await expect(loadSuiteFile(path.join(dir, 'suite.yaml'))).rejects.toMatchObject({
      name: 'InputError',
      file: path.join(dir, 'suite.yaml'),
      message: expect.stringMatching(/"imagee"/),
    });
  });

  it('a missing patch file', async () => {
    const dir = await dirWith({
      'case.yaml': caseWith({
        suite,
        targets: [targets[0], { repo: 'acme/web', url: '.', base: 'main', patch: 'nope.diff' }],
      }),
    });
    const file = path.join(dir, 'case.yaml');
    const err = await loadError(file);
    expect(err.file).toBe(file);
    expect(err.message).toContain(file);
    expect(err.message).toContain('"targets[1].patch"');
    expect(err.message).toContain(path.join(path.dirname(file), 'nope.diff'));
  });

  it('a case file that does not exist', async () => {
    const file = path.join(root, 'nowhere', 'case.yaml');
    const err = await loadError(file);
    expect(err.file).toBe(file);
    expect(err.message).toContain('no such file');
    expect(err.message).not.toContain('ENOENT');
  });

  it('a suite path that does not exist names the case file, its `suite` field and the path', async () => {
    const dir = await dirWith({ 'case.yaml': caseWith({ suite: 'missing.yaml' }) });
    const err = await loadError(path.join(dir, 'case.yaml'));
    expect(err.file).toBe(path.join(dir, 'case.yaml'));
    expect(err.field).toBe('suite');
    expect(err.message).toContain('field "suite": no suite file at');
    expect(err.message).toContain(path.join(dir, 'missing.yaml'));
    expect(err.message).not.toContain('ENOENT');
  });

  it('a duplicate test group name in a suite', async () => {
    const dir = await dirWith({ 'suite.yaml': { ...suite, tests: [suite.tests[0], suite.tests[0]] } });
    await expect(loadSuiteFile(path.join(dir, 'suite.yaml'))).rejects.toMatchObject({
      field: 'tests[1].name',
      message: expect.stringMatching(/duplicate test group "api"/),
    });
  });
});
