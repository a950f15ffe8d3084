/**
 * `tandem config check` as strong as a validator should be (the built CLI, spawned): settings the
 * App accepts but that cannot work are warnings naming their field (exit 0, or 2 with
 * `--strict`); with `--evaluator-dir` every suite file, hidden file, repository name, image and
 * the actions workflow with its vendored Action are checked, and an error names file and field
 * (exit 2).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { runCli } from '../helpers/example-cases.ts';
import { makeTempDir, removeTempDir } from '../helpers/git-fixtures.ts';

let dir: string;
beforeAll(async () => {
  dir = await makeTempDir('tandem-config-check-');
});
afterAll(() => removeTempDir(dir));

async function writeYaml(file: string, data: unknown): Promise<string> {
  const abs = path.join(dir, file);
  await mkdir(path.dirname(abs), { recursive: true });
  await writeFile(abs, typeof data === 'string' ? data : YAML.stringify(data));
  return abs;
}

const suite = (over: Record<string, unknown> = {}) => ({
  name: 'main',
  image: 'tandem/sandbox:node20',
  prepare: { api: { run: 'npm ci' } },
  tests: [
    {
      name: 'api',
      repo: 'api',
      files: ['hidden/api.test.js'],
      run: 'node --test',
      results: { format: 'junit', path: 'api.xml' },
    },
  ],
  merge_order: ['acme/api', 'acme/web'],
  ...over,
});

describe('tandem config check: warnings', () => {
  it('warns about two suites on one repository, reveal, limits and a stray actions block; --strict exits 2', async () => {
    const file = await writeYaml('warn/tandem.yml', {
      evaluator: 'acme/evaluator',
      suites: [
        { name: 'first', repos: ['acme/api', 'acme/web'], path: 'suites/first/suite.yml' },
        { name: 'second', repos: ['acme/API'], path: 'suites/second/suite.yml' },
      ],
      reveal: 'names',
      limits: { members: 1, repos: 2 },
      actions: { workflow: 'tandem.yml' },
    });
    const r = await runCli(['config', 'check', file]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`${file}: valid (5 warning(s))`);
    expect(r.stderr).toContain(
      `tandem: warning: ${file}: field "suites[1].repos[0]": acme/API is also covered by suite "first" (suites[0]); the App uses the first suite`,
    );
    expect(r.stderr).toContain(`field "reveal": names: the names of failing hidden tests appear`);
    expect(r.stderr).toContain('field "limits.members": 1: a linked change has at least 2 pull requests');
    expect(r.stderr).toContain('field "limits.repos": 2 is more than limits.members (1)');
    expect(r.stderr).toContain('field "actions": is ignored with executor "local"');

    const strict = await runCli(['config', 'check', file, '--strict']);
    expect(strict.code).toBe(2);
    expect(strict.stderr).toContain(`tandem: ${file}: 0 error(s), 5 warning(s) (--strict)`);
    expect(strict.stdout).toBe('');
  });

  it('a suite covering the evaluator repository is an error naming the field', async () => {
    const file = await writeYaml('self/tandem.yml', {
      evaluator: 'acme/evaluator',
      suites: [{ name: 'main', repos: ['acme/api', 'acme/Evaluator'], path: 's.yml' }],
    });
    const r = await runCli(['config', 'check', file]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      `${file}: field "suites[0].repos[1]": acme/Evaluator is the evaluator repository`,
    );
  });
});

describe('tandem config check --evaluator-dir', () => {
  it('names each missing or wrong file, field and repository, and exits 2', async () => {
    const evaluator = path.join(dir, 'bad-evaluator');
    await writeYaml(
      'bad-evaluator/suites/main/suite.yml',
      suite({
        tests: [
          ...suite().tests,
          {
            name: 'pay',
            repo: 'payments',
            files: [],
            run: 'true',
            results: { format: 'tap', path: 'p.tap' },
          },
        ],
      }),
    );
    await writeYaml('bad-evaluator/suites/typo/suite.yml', { ...suite(), imgae: 'x' });
    await writeYaml('bad-evaluator/suites/rust/suite.yml', {
      ...suite({ image: 'tandem/sandbox:rust' }),
      merge_order: undefined,
    });
    await writeFile(path.join(evaluator, 'suites', 'rust', 'hidden.txt'), '');
    const file = await writeYaml('bad/tandem.yml', {
      evaluator: 'acme/evaluator',
      executor: 'actions',
      suites: [
        { name: 'main', repos: ['acme/api', 'acme/web'], path: 'suites/main/suite.yml' },
        { name: 'typo', repos: ['acme/billing'], path: 'suites/typo/suite.yml' },
        { name: 'gone', repos: ['acme/docs'], path: 'suites/gone/suite.yml' },
        { name: 'rust', repos: ['acme/api2'], path: 'suites/rust/suite.yml' },
      ],
    });
    const r = await runCli(['config', 'check', file, '--evaluator-dir', evaluator]);
    expect(r.code, r.stderr).toBe(2);
    const main = path.join(evaluator, 'suites', 'main', 'suite.yml');
    expect(r.stderr).toContain(
      `tandem: ${main}: field "tests[0].files[0]": no such file or folder ${path.join(evaluator, 'suites', 'main', 'hidden', 'api.test.js')}`,
    );
    expect(r.stderr).toContain(
      `tandem: ${main}: field "tests[1].repo": "payments" is not a repository suite "main" covers (have: acme/api, acme/web)`,
    );
    expect(r.stderr).toContain(
      `${path.join(evaluator, 'suites', 'typo', 'suite.yml')}: field "(root)": Unrecognized key: "imgae"`,
    );
    expect(r.stderr).toContain(
      `tandem: ${file}: field "suites[2].path": no suite file at ${path.join(evaluator, 'suites', 'gone', 'suite.yml')}`,
    );
    expect(r.stderr).toContain('field "image": "tandem/sandbox:rust" is no image `tandem image build` makes');
    expect(r.stderr).toContain(
      `tandem: ${file}: field "actions.workflow": no workflow at ${path.join(evaluator, '.github', 'workflows', 'tandem.yml')}`,
    );
    expect(r.stderr).not.toContain('ENOENT');
    expect(r.stdout).toBe('');
  });

  it('what `tandem init` writes passes --strict; an image not on the engine is a warning; a workflow without its vendored Action an error', async () => {
    const out = path.join(dir, 'init');
    const init = await runCli([
      'init',
      'acme/api',
      'acme/web',
      '--evaluator',
      'acme/evaluator',
      '--dir',
      out,
    ]);
    expect(init.code, init.stderr).toBe(0);
    const org = path.join(out, 'acme', '.github', '.github', 'tandem.yml');
    const evaluator = path.join(out, 'acme', 'evaluator');
    const ok = await runCli(['config', 'check', org, '--evaluator-dir', evaluator, '--strict']);
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stdout).toContain(`valid — evaluator acme/evaluator`);
    expect(ok.stdout).toContain(`suite files, hidden files and images checked in ${evaluator}`);

    const suiteFile = path.join(evaluator, 'suites', 'main', 'suite.yml');
    const text = (await import('node:fs')).readFileSync(suiteFile, 'utf8');
    await writeFile(suiteFile, text.replace('image: tandem/sandbox:node20', 'image: acme/no-such-image:1'));
    await (await import('node:fs/promises')).rm(path.join(evaluator, '.github', 'actions'), {
      recursive: true,
    });
    const r = await runCli(['config', 'check', org, '--evaluator-dir', evaluator]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      `tandem: warning: ${suiteFile}: field "image": "acme/no-such-image:1" is not on this Docker engine`,
    );
    expect(r.stderr).toContain(
      'uses ./.github/actions/tandem, which is not there: run `tandem action vendor --dir',
    );
  });
});
