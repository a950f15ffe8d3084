/**
 * Generated benchmark instances on real git repositories: two repositories (`acme/api` emits a
 * field name, `acme/web` accepts field names), a test patch in `api` that sets the allowed field
 * names, hidden TAP checks per repository, and diffs for gold and for predictions of every kind.
 *
 *   base: api/FIELD = old, api/tests/allowed = old, web/ACCEPTS = old
 *   test patch (api): tests/allowed = amount|total
 *   gold: api/FIELD = amount, web/ACCEPTS = "amount total"  — jointly necessary
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import YAML from 'yaml';
import type { BenchInstanceInput } from '../../src/core/bench-instance.schema.ts';
import type { SuiteInput } from '../../src/core/suite.schema.ts';
import { git, gitOut } from '../../src/engine/git/git.ts';
import { SANDBOX_IMAGE, shellGroup, tapScript } from './example-cases.ts';
import { createRepo, type Files, type FixtureRepo, writeFiles } from './git-fixtures.ts';

export const API = 'acme/api';
export const WEB = 'acme/web';

export interface BenchFixture {
  root: string;
  repos: Record<'api' | 'web', FixtureRepo & { sha: string }>;
  /** A unified diff of `files` against base in `repo` (nothing committed). */
  diff(repo: 'api' | 'web', files: Files): Promise<string>;
  /** A diff over the joint workspace (paths prefixed with each repository's folder). */
  jointDiff(changes: Partial<Record<'api' | 'web', Files>>): Promise<string>;
  instance(over?: Partial<BenchInstanceInput>): Promise<BenchInstanceInput>;
  /** Writes instances (JSONL) under root; returns the path. */
  writeInstances(name: string, rows: unknown[]): Promise<string>;
  writePredictions(name: string, text: string): Promise<string>;
}

export const GOLD: Record<'api' | 'web', Files> = {
  api: { FIELD: 'amount\n' },
  web: { ACCEPTS: 'amount total\n' },
};

export const CHECKS = {
  api: [{ name: 'api emits an allowed new field', cmd: 'grep -qxE "$(cat api/tests/allowed)" api/FIELD' }],
  web: [
    {
      name: 'web accepts the api field',
      cmd: 'grep -qw "$(cat api/FIELD)" web/ACCEPTS && ! grep -qw old web/ACCEPTS',
    },
    { name: 'web keeps its readme', cmd: 'test -f web/README' },
  ],
};

export function benchSuite(extra: Partial<SuiteInput> = {}): SuiteInput {
  return {
    name: 'acme-bench',
    image: SANDBOX_IMAGE,
    tests: [shellGroup('api', { repo: API }), shellGroup('web', { repo: WEB })],
    ...extra,
  };
}

export async function benchFixture(root: string, suite: SuiteInput = benchSuite()): Promise<BenchFixture> {
  const remotes = path.join(root, 'remotes');
  const api = await createRepo(remotes, 'api', {
    FIELD: 'old\n',
    'tests/allowed': 'old\n',
    'src/x.txt': 'x\n',
  });
  const web = await createRepo(remotes, 'web', { ACCEPTS: 'old\n', README: 'web\n' });
  const repos = { api, web };
  await writeFiles(root, {
    'evaluator/hidden/api.sh': tapScript('api.tap', CHECKS.api),
    'evaluator/hidden/web.sh': tapScript('web.tap', CHECKS.web),
    'evaluator/suite.yml': YAML.stringify(suite),
  });
  const diff = async (which: 'api' | 'web', files: Files, folder?: string): Promise<string> => {
    const work = repos[which].work;
    await writeFiles(work, files);
    await git(['add', '--all'], { cwd: work });
    const prefixes = folder ? [`--src-prefix=a/${folder}/`, `--dst-prefix=b/${folder}/`] : [];
    const text = await gitOut(['diff', '--cached', '--no-color', ...prefixes], { cwd: work });
    await git(['reset', '--quiet', '--hard', 'HEAD'], { cwd: work });
    // gitOut trims; a diff ends with a newline (and joint diffs are concatenations).
    return text ? `${text}\n` : '';
  };
  const testPatch = await diff('api', { 'tests/allowed': 'amount|total\n' });
  const fixture: BenchFixture = {
    root,
    repos,
    diff,
    async jointDiff(changes) {
      let out = '';
      for (const [which, files] of Object.entries(changes) as Array<['api' | 'web', Files]>) {
        out += await diff(which, files, which);
      }
      return out;
    },
    async instance(over = {}) {
      return {
        instance_id: 'acme-1',
        problem_statement: 'Rename the field from "old" to "amount" across api and web.',
        repos: [
          {
            repo: API,
            url: api.url,
            base_commit: api.sha,
            patch: await diff('api', GOLD.api),
            test_patch: testPatch,
          },
          { repo: WEB, url: web.url, base_commit: web.sha, patch: await diff('web', GOLD.web) },
        ],
        suite: 'evaluator/suite.yml',
        provenance: ['https://github.com/acme/api/pull/1', 'https://github.com/acme/web/pull/2'],
        metadata: { languages: ['sh'] },
        ...over,
      };
    },
    async writeInstances(name, rows) {
      const file = path.join(root, name);
      await writeFile(file, `${rows.map((r) => JSON.stringify(r)).join('\n')}\n`);
      return file;
    },
    async writePredictions(name, text) {
      const file = path.join(root, name);
      await writeFile(file, text);
      return file;
    },
  };
  return fixture;
}
