/**
 * Benchmark file formats: instances (multi-repository rows and SWE-bench rows), predictions in
 * SWE-bench's three forms, the joint `model_patch` split, and errors naming file, line and field.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadInstances } from '../../src/bench/instances-file.ts';
import { splitJointPatch } from '../../src/bench/joint-patch.ts';
import { predictionPatches } from '../../src/bench/prediction-patches.ts';
import { parsePredictions } from '../../src/bench/predictions-file.ts';
import { InputError } from '../../src/core/errors.ts';

let dir: string;
const suite = {
  name: 's',
  image: 'tandem/sandbox:node20',
  tests: [{ name: 'g', run: 'true', results: { format: 'tap', path: 'g.tap' } }],
};
const multi = {
  instance_id: 'acme-1',
  problem_statement: 'p',
  repos: [
    { repo: 'acme/api', url: 'remotes/api.git', base_commit: 'abc', patch: 'x', test_patch: 't' },
    { repo: 'acme/web', url: 'https://example.com/web.git', base_commit: 'def', patch: 'y' },
  ],
  suite: 'suite.yml',
};

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'tandem-bench-formats-'));
  await writeFile(path.join(dir, 'suite.yml'), JSON.stringify(suite));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

async function instancesFile(rows: unknown[]): Promise<string> {
  const file = path.join(dir, `i-${Math.random().toString(36).slice(2)}.jsonl`);
  await writeFile(file, rows.map((r) => (typeof r === 'string' ? r : JSON.stringify(r))).join('\n'));
  return file;
}

async function loadError(rows: unknown[]): Promise<InputError> {
  const err = await loadInstances(await instancesFile(rows)).catch((e: unknown) => e);
  expect(err).toBeInstanceOf(InputError);
  return err as InputError;
}

describe('instances file', () => {
  it('loads a multi-repository instance: suite from its path, local URLs against the file folder', async () => {
    const [loaded] = await loadInstances(await instancesFile([multi]));
    expect(loaded!.suite.name).toBe('s');
    expect(loaded!.instance.repos[0]!.url).toBe(path.join(dir, 'remotes/api.git'));
    expect(loaded!.instance.repos[1]!.url).toBe('https://example.com/web.git');
    expect(loaded!.instance.context).toEqual([]);
  });

  it('loads a SWE-bench row plus a suite as a one-repository instance (lists as JSON text too)', async () => {
    const row = {
      instance_id: 'django__django-11099',
      repo: 'django/django',
      base_commit: 'd26b2424437dabeeca94d7900b37d2df4410da0c',
      patch: 'diff --git a/x b/x\n',
      test_patch: 'diff --git a/t b/t\n',
      problem_statement: 'UsernameValidator allows trailing newline',
      hints_text: '',
      version: '3.0',
      FAIL_TO_PASS: '["g::::a"]',
      PASS_TO_PASS: ['g::::b'],
      suite: 'suite.yml',
    };
    const [loaded] = await loadInstances(await instancesFile([row]));
    expect(loaded!.instance.repos).toEqual([
      {
        repo: 'django/django',
        url: 'https://github.com/django/django.git',
        base_commit: row.base_commit,
        patch: row.patch,
        test_patch: row.test_patch,
      },
    ]);
    expect(loaded!.instance.FAIL_TO_PASS).toEqual(['g::::a']);
    expect(loaded!.instance.PASS_TO_PASS).toEqual(['g::::b']);
    expect(loaded!.instance.metadata).toMatchObject({ source: 'swe-bench', version: '3.0' });
  });

  it('names the file, the line and the field of a bad row', async () => {
    const err = await loadError([
      multi,
      { ...multi, instance_id: 'acme-2', repos: [{ ...multi.repos[0], base_commit: '' }] },
    ]);
    expect(err.message).toMatch(/i-\w+\.jsonl:2: field "repos\[0\]\.base_commit": expected a commit SHA/);
  });

  it('names the line of text that is not JSON, and a duplicate id', async () => {
    expect((await loadError([multi, '{oops'])).message).toMatch(/\.jsonl:2: not valid JSON/);
    expect((await loadError([multi, '', multi])).message).toMatch(
      /\.jsonl:3: field "instance_id": "acme-1" already appears on line 1/,
    );
  });

  it('names the field inside an inline suite', async () => {
    const err = await loadError([{ ...multi, suite: { ...suite, tests: [] } }]);
    expect(err.message).toMatch(/\.jsonl:1: field "suite\.tests": a suite needs at least one test group/);
  });

  it("finds an inline suite's files in suite_dir (relative to the file); a suite file takes none", async () => {
    const [inline, plain] = await loadInstances(
      await instancesFile([
        { ...multi, suite, suite_dir: '../evaluator' },
        { ...multi, instance_id: 'acme-2', suite },
      ]),
    );
    expect(inline!.suiteDir).toBe(path.resolve(dir, '../evaluator'));
    expect(plain!.suiteDir).toBe(dir);
    const err = await loadError([{ ...multi, suite_dir: 'evaluator' }]);
    expect(err.message).toMatch(/field "suite_dir": only an inline suite takes a suite_dir/);
  });

  it('rejects two repositories that would share a workspace folder', async () => {
    const err = await loadError([
      { ...multi, repos: [multi.repos[0], { ...multi.repos[1], repo: 'other/api' }] },
    ]);
    expect(err.message).toMatch(/"other\/api" would share the workspace folder "api" with "acme\/api"/);
  });
});

describe('predictions file', () => {
  const p1 = { instance_id: 'a', model_name_or_path: 'm', model_patch: 'd1' };
  const p2 = { instance_id: 'b', model_name_or_path: 'm', model_patches: { 'acme/api': 'd2' } };

  it('reads JSON lines, a JSON list and an object keyed by id alike', () => {
    const lines = parsePredictions(`${JSON.stringify(p1)}\n${JSON.stringify(p2)}\n`, 'p.jsonl');
    const list = parsePredictions(JSON.stringify([p1, p2]), 'p.json');
    const { instance_id: _a, ...k1 } = p1;
    const { instance_id: _b, ...k2 } = p2;
    const keyed = parsePredictions(JSON.stringify({ a: k1, b: k2 }), 'p.json');
    expect(lines).toEqual([p1, p2]);
    expect(list).toEqual([p1, p2]);
    expect(keyed).toEqual([p1, p2]);
    expect(parsePredictions(JSON.stringify(p1), 'one.jsonl')).toEqual([p1]);
  });

  it('names the row and field of a bad prediction', () => {
    expect(() =>
      parsePredictions(`${JSON.stringify(p1)}\n${JSON.stringify({ instance_id: 'b' })}\n`, 'p.jsonl'),
    ).toThrow(/p\.jsonl:2: field "model_name_or_path": /);
    expect(() => parsePredictions(JSON.stringify([p1, { ...p2, model_patch: 'x' }]), 'p.json')).toThrow(
      /p\.json: \[1\]: field "model_patches": give either "model_patch"/,
    );
    expect(() => parsePredictions(JSON.stringify({ a: { ...p1, instance_id: 'z' } }), 'p.json')).toThrow(
      /\["a"\]: field "instance_id": "z" differs from its key/,
    );
  });
});

describe('joint model_patch', () => {
  const joint = [
    'diff --git a/api/FIELD b/api/FIELD',
    'index 3367afd..e0a3ac1 100644',
    '--- a/api/FIELD',
    '+++ b/api/FIELD',
    '@@ -1 +1 @@',
    '-old',
    '+amount',
    'diff --git a/web/new.txt b/web/new.txt',
    'new file mode 100644',
    '--- /dev/null',
    '+++ b/web/new.txt',
    '@@ -0,0 +1 @@',
    '+hello',
    '',
  ].join('\n');

  it('splits per repository by leading folder and strips the folder from every path', () => {
    const parts = splitJointPatch(joint, ['acme/api', 'acme/web'], 'p');
    expect(parts['acme/api']).toBe(
      'diff --git a/FIELD b/FIELD\nindex 3367afd..e0a3ac1 100644\n--- a/FIELD\n+++ b/FIELD\n@@ -1 +1 @@\n-old\n+amount\n',
    );
    expect(parts['acme/web']).toBe(
      'diff --git a/new.txt b/new.txt\nnew file mode 100644\n--- /dev/null\n+++ b/new.txt\n@@ -0,0 +1 @@\n+hello\n',
    );
  });

  it('keeps a removed line that starts with "--" inside a hunk of a plain unified diff', () => {
    const plain = '--- a/api/x\n+++ b/api/x\n@@ -1,2 +1,1 @@\n--- not a header\n+++ b/api/x\n';
    const parts = splitJointPatch(plain, ['acme/api'], 'p');
    expect(Object.keys(parts)).toEqual(['acme/api']);
    expect(parts['acme/api']).toBe('--- a/x\n+++ b/x\n@@ -1,2 +1,1 @@\n--- not a header\n+++ b/api/x\n');
  });

  it('rejects a file outside every repository folder, naming it', () => {
    expect(() =>
      splitJointPatch(joint.replaceAll('web/', 'docs/'), ['acme/api', 'acme/web'], 'p.jsonl'),
    ).toThrow(/field "model_patch": "docs\/new.txt" is outside every repository folder \(have: api, web\)/);
  });

  it('maps predictions to per-repository patches: empty, None, by folder name, gold', () => {
    const instance = {
      instance_id: 'a',
      problem_statement: '',
      repos: [
        { repo: 'acme/api', url: 'u', base_commit: 'b', patch: 'gold-api' },
        { repo: 'acme/web', url: 'u', base_commit: 'b', patch: 'gold-web' },
      ],
      context: [],
      suite: 's',
      provenance: [],
      metadata: {},
    };
    const none = predictionPatches(
      { instance_id: 'a', model_name_or_path: 'm', model_patch: null },
      instance,
      'p',
    );
    expect(none).toEqual({ patchIsNone: true, patchExists: false, patches: {} });
    const empty = predictionPatches(
      { instance_id: 'a', model_name_or_path: 'm', model_patch: '' },
      instance,
      'p',
    );
    expect(empty).toMatchObject({ patchIsNone: false, patchExists: false });
    const byFolder = predictionPatches(
      { instance_id: 'a', model_name_or_path: 'm', model_patches: { web: 'd' } },
      instance,
      'p',
    );
    expect(byFolder.patches).toEqual({ 'acme/web': 'd' });
    expect(
      predictionPatches({ instance_id: 'a', model_name_or_path: 'gold' }, instance, 'p').patches,
    ).toEqual({
      'acme/api': 'gold-api',
      'acme/web': 'gold-web',
    });
    expect(() =>
      predictionPatches(
        { instance_id: 'a', model_name_or_path: 'm', model_patches: { docs: 'd' } },
        instance,
        'p',
      ),
    ).toThrow(/field "model_patches.docs": no repository "docs" in the instance/);
  });
});
