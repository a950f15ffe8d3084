/**
 * An organization's setup from the CLI, checked before anything is pushed: `tandem init` writes
 * a starter tandem.yml, a suite skeleton and the evaluator workflow that pass `tandem config
 * check`, load as a suite and validate against the JSON Schema in schema/; `config check` names
 * the field at fault with a suggestion and exits 2; a misspelt case key and a missing suite file
 * are named; `tandem --help` into a closed pipe exits 0 without a stack trace.
 */
import { spawn } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { loadSuiteFile } from '../../src/engine/case-loader.ts';
import { REPO_ROOT, runCli } from '../helpers/example-cases.ts';
import { makeTempDir } from '../helpers/git-fixtures.ts';

let dir: string;
beforeAll(async () => {
  dir = await makeTempDir('tandem-setup-');
});

const orgFile = () => path.join(dir, 'acme', '.github', '.github', 'tandem.yml');
const evaluator = () => path.join(dir, 'acme', 'evaluator');

describe('tandem init', () => {
  it('writes a starter setup that config check, the suite loader and the JSON Schema accept', async () => {
    const r = await runCli(['init', 'acme/api', 'acme/web', '--evaluator', 'acme/evaluator', '--dir', dir]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('→ commit to acme/.github');
    expect(r.stdout).toContain('→ commit to acme/evaluator (private)');

    const check = await runCli(['config', 'check', orgFile()]);
    expect(check.code, check.stderr).toBe(0);
    expect(check.stdout).toContain('valid — evaluator acme/evaluator, 1 suite(s) covering 2 repositories');

    const schema = JSON.parse(
      await readFile(path.join(REPO_ROOT, 'schema', 'tandem-config.schema.json'), 'utf8'),
    );
    const ajv = new Ajv2020({ strict: false });
    const config = parse(await readFile(orgFile(), 'utf8'));
    expect(ajv.validate(schema, config), JSON.stringify(ajv.errors)).toBe(true);
    expect(config.suites[0]).toMatchObject({
      repos: ['acme/api', 'acme/web'],
      path: 'suites/main/suite.yml',
    });

    const suite = await loadSuiteFile(path.join(evaluator(), 'suites', 'main', 'suite.yml'));
    expect(suite.tests.map((t) => [t.name, t.repo, t.files])).toEqual([
      ['api', 'api', ['hidden/api.test.js']],
      ['web', 'web', ['hidden/web.test.js']],
    ]);
    expect(suite.merge_order).toEqual(['acme/api', 'acme/web']);
    await readFile(path.join(evaluator(), 'suites', 'main', 'hidden', 'web.test.js'), 'utf8');
    const workflow = await readFile(path.join(evaluator(), '.github', 'workflows', 'tandem.yml'), 'utf8');
    expect(workflow).toContain("'suites/main/suite.yml'");
    expect(workflow).toContain('actions/checkout@v5');
    await readFile(path.join(evaluator(), 'images', 'node20', 'Dockerfile'), 'utf8');
  });

  it('refuses to overwrite without --force, and names a bad repository', async () => {
    const again = await runCli(['init', 'acme/api', '--evaluator', 'acme/evaluator', '--dir', dir]);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain('not overwriting');
    const bad = await runCli(['init', 'api', '--evaluator', 'acme/evaluator', '--dir', dir]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('argument repos[0]: expected a repository like "owner/name", got "api"');
  });
});

describe('tandem config check', () => {
  it('names the field at fault with the nearest known key, and exits 2', async () => {
    const file = path.join(dir, 'typo.yml');
    await writeFile(
      file,
      'evaluator: acme/evaluator\nsuites:\n  - name: main\n    reops: [acme/api]\n    path: suites/main/suite.yml\n',
    );
    const r = await runCli(['config', 'check', file]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      `${file}: field "suites[0]": Unrecognized key: "reops"; "reops" → did you mean "repos"?`,
    );
    // Printed once.
    expect(r.stderr.match(/Unrecognized key/g)).toHaveLength(1);
  });

  it('names a bad value by its field', async () => {
    const file = path.join(dir, 'matrix.yml');
    await writeFile(
      file,
      'evaluator: acme/evaluator\nsuites:\n  - {name: m, repos: [acme/api], path: s.yml}\nmatrix: all\n',
    );
    const r = await runCli(['config', 'check', file]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('field "matrix"');
  });
});

describe('messages that name the fault', () => {
  it('a misspelt case key is named with a suggestion; a missing suite names the suite field', async () => {
    const suite = path.join(dir, 'suite.yml');
    await writeFile(
      suite,
      'name: s\nimage: tandem/sandbox:node20\ntests:\n  - {name: a, run: "true", results: {format: junit, path: a.xml}}\n',
    );
    const typo = path.join(dir, 'typo-case.yml');
    await writeFile(
      typo,
      'name: c\nsuite: suite.yml\ntargets:\n  - {repo: acme/api, url: /x, base: main, haed: feature}\n',
    );
    const r = await runCli(['eval', typo]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('field "targets[0]": Unrecognized key: "haed"');
    expect(r.stderr).toContain('"haed" → did you mean "head"?');

    const missing = path.join(dir, 'missing-suite.yml');
    await writeFile(
      missing,
      'name: c\nsuite: nope.yml\ntargets:\n  - {repo: acme/api, url: /x, base: main, head: f}\n',
    );
    const m = await runCli(['eval', missing]);
    expect(m.code).toBe(2);
    expect(m.stderr).toContain(`${missing}: field "suite": no suite file at ${path.join(dir, 'nope.yml')}`);
    expect(m.stderr).not.toContain('ENOENT');
  });

  it('`tandem --help | head`: a reader that closes the pipe is no error', async () => {
    // Compile first if needed, so the run below only prints the help.
    await runCli(['--version']);
    const child = spawn(process.execPath, [path.join(REPO_ROOT, 'bin', 'tandem.js'), '--help'], {
      cwd: REPO_ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
    });
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(stderr).not.toMatch(/Error|at .*\.js:\d+/);
    expect(code).toBe(0);
  });

  it('`tandem image build` refuses an unknown kind, naming the argument', async () => {
    const r = await runCli(['image', 'build', 'rust']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('argument kind: expected node, python, go or all, got "rust"');
  });
});
