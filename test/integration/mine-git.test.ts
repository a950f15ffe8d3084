/**
 * `tandem mine git` over real repositories served by git over HTTP: a history with messy trailers
 * across three repositories found as one set, a docs-only side screened out, commits of the set
 * that conflict when replayed screened out, unrelated commits left out of the gold patch, merges of
 * a same-named branch (read from GitHub's merge messages) linked within the window.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BenchInstance, benchInstanceSchema } from '../../src/core/bench-instance.schema.ts';
import { git } from '../../src/engine/git/git.ts';
import { mineGit } from '../../src/mine/mine-git.ts';
import { loadSuiteTemplate } from '../../src/mine/suite-template.ts';
import {
  commitOn,
  createRepo,
  type FixtureRepo,
  makeTempDir,
  removeTempDir,
} from '../helpers/git-fixtures.ts';
import { type GitHttpServer, startGitHttpServer } from '../support/git-http-server.ts';

const SUITE_TEMPLATE = `name: "{{instance_id}}"
image: tandem/sandbox:node20
tests:
{{#each repos}}
  - name: {{name}}
    repo: {{repo}}
    run: cd {{name}} && node --test --test-reporter=junit --test-reporter-destination=$TANDEM_RESULTS/{{name}}.xml
    results: { format: junit, path: {{name}}.xml }
{{/each}}
`;

let root: string;
let server: GitHttpServer;
const repos: Record<string, FixtureRepo> = {};
const url = (name: string) => `${server.url}/${name}.git`;
const identity = {
  GIT_AUTHOR_NAME: 'Fixture',
  GIT_AUTHOR_EMAIL: 'fixture@example.com',
  GIT_COMMITTER_NAME: 'Fixture',
  GIT_COMMITTER_EMAIL: 'fixture@example.com',
};

/** A branch with one commit, merged into main with GitHub's merge message. */
async function mergeBranch(repo: FixtureRepo, branch: string, files: Record<string, string>, pr: number) {
  await commitOn(repo, branch, files, `${branch}: work`, { from: 'main' });
  await git(['checkout', '--quiet', 'main'], { cwd: repo.work });
  await git(['merge', '--quiet', '--no-ff', branch, '-m', `Merge pull request #${pr} from acme/${branch}`], {
    cwd: repo.work,
    env: identity,
  });
  await git(['push', '--quiet', 'origin', 'HEAD:refs/heads/main'], { cwd: repo.work });
}

beforeAll(async () => {
  root = await makeTempDir('tandem-mine-git-');
  for (const name of ['api', 'web', 'cli', 'docs']) {
    repos[name] = await createRepo(root, name, {
      'package.json': `{ "name": "${name}", "version": "1.0.0" }\n`,
      'src/index.ts': `export function hello(): string {\n  return 'hi';\n}\n`,
      'README.md': `# ${name}\n`,
    });
  }
  const { api, web, cli, docs } = repos as Record<string, FixtureRepo>;
  // Set 1 (three repositories), linked through api's issue 63 in three spellings.
  await commitOn(
    api!,
    'main',
    {
      'src/index.ts': `export function hello(): string {\n  return 'hi';\n}\nexport function total(items: number[], currency: string): string {\n  return \`\${items.reduce((a, b) => a + b, 0)} \${currency}\`;\n}\n`,
      'test/total.test.ts': `import { total } from '../src/index.ts';\n`,
    },
    'Add currency to totals\n\nFixes #63',
  );
  await commitOn(api!, 'main', { 'src/unrelated.ts': 'export const x = 1;\n' }, 'chore: unrelated tidy-up');
  await commitOn(
    api!,
    'main',
    { 'src/round.ts': 'export const round = (n: number) => Math.round(n);\n' },
    'Round totals\n\nRelated-to: #63',
  );
  await commitOn(
    web!,
    'main',
    { 'src/checkout.ts': 'export const showCurrency = true;\n' },
    'web: show currency\n\nRelated-to: acme/api#63',
  );
  await commitOn(
    cli!,
    'main',
    { 'src/print.ts': 'export const printCurrency = true;\n' },
    'cli: print currency\n\nRefrences: Acme/API#63\nSigned-off-by: Jo <jo@example.com>',
  );
  // Set 2: api issue 70, whose docs side only touches docs and the version number.
  await commitOn(api!, 'main', { 'src/rates.ts': 'export const rate = 2;\n' }, 'Add rates\n\nCloses GH-70');
  await commitOn(
    docs!,
    'main',
    { 'README.md': '# docs\n\nRates.\n', 'package.json': `{ "name": "docs", "version": "1.1.0" }\n` },
    'Document rates (acme/api#70)',
  );
  // Set 3: two web commits for api#80 that cannot be replayed without the commit between them.
  await commitOn(api!, 'main', { 'src/limits.ts': 'export const limit = 1;\n' }, 'limits\n\nFixes #80');
  await commitOn(web!, 'main', { 'src/limits.ts': 'export const a = 1;\n' }, 'web: limits (acme/api#80)');
  await commitOn(web!, 'main', { 'src/limits.ts': 'export const a = 2;\n' }, 'web: tweak limits');
  await commitOn(
    web!,
    'main',
    { 'src/limits.ts': 'export const a = 3;\n' },
    'web: limits again\n\nRef: acme/api#80',
  );
  // Set 4: web and cli merge a branch of the same name, with no reference in any message.
  await mergeBranch(web!, 'feat/sync', { 'src/sync.ts': 'export const sync = 1;\n' }, 4);
  await mergeBranch(cli!, 'feat/sync', { 'src/sync.ts': 'export const syncCli = 1;\n' }, 9);
  server = await startGitHttpServer(root);
});

afterAll(async () => {
  await server?.close();
  await removeTempDir(root);
});

describe('tandem mine git', () => {
  it('finds the three-repository set through messy trailers, screens the docs-only and the conflicting sets', async () => {
    const out = path.join(root, 'out', 'candidates.jsonl');
    const templateFile = path.join(root, 'suite.hbs.yaml');
    await writeFile(templateFile, SUITE_TEMPLATE);
    const template = await loadSuiteTemplate(templateFile);
    const result = await mineGit({
      repos: ['api', 'web', 'cli', 'docs'].map((n) => ({ repo: `acme/${n}`, url: url(n) })),
      since: new Date('2020-01-01'),
      windowMs: 14 * 86_400_000,
      cacheDir: path.join(root, 'cache'),
      out,
      settings: {
        maxRepos: 5,
        maxFiles: 40,
        maxLines: 1500,
        suite: (instanceId, r) => template({ instanceId, repos: r }),
      },
    });

    const lines = (await readFile(out, 'utf8')).trim().split('\n');
    expect(lines).toHaveLength(2);
    const [instance, byBranch] = lines.map((l) => benchInstanceSchema.parse(JSON.parse(l))) as [
      BenchInstance,
      BenchInstance,
    ];
    expect(byBranch.repos.map((r) => r.repo)).toEqual(['acme/web', 'acme/cli']);
    expect(byBranch.metadata.shared_branches).toEqual(['feat/sync']);
    expect(byBranch.repos[0]!.patch).toContain('src/sync.ts');
    expect(instance.repos.map((r) => r.repo)).toEqual(['acme/api', 'acme/web', 'acme/cli']);
    const apiSide = instance.repos[0]!;
    // Gold patch: the set's two api commits, not the unrelated one between them; tests apart.
    expect(apiSide.patch).toContain('src/round.ts');
    expect(apiSide.patch).toContain('export function total');
    expect(apiSide.patch).not.toContain('src/unrelated.ts');
    expect(apiSide.patch).not.toContain('test/total.test.ts');
    expect(apiSide.test_patch).toContain('test/total.test.ts');
    expect(instance.repos[1]!.test_patch).toBeUndefined();
    expect(instance.metadata.needs_rewrite).toBe(true);
    expect(instance.problem_statement).toContain('Add currency to totals');
    expect(instance.metadata.interface).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ file: 'acme/api:src/index.ts', name: 'total', change: 'added' }),
        expect.objectContaining({ file: 'acme/web:src/checkout.ts', name: 'showCurrency' }),
      ]),
    );
    const stats = instance.metadata.repositories as Record<
      string,
      { head_is_replay: boolean; commits: string[]; languages: string[] }
    >;
    expect(stats['acme/api']).toMatchObject({ head_is_replay: true, languages: ['TypeScript'] });
    expect(stats['acme/api']!.commits).toHaveLength(2);
    // Four commits and the issue they all name.
    expect(instance.provenance).toHaveLength(5);
    expect(instance.provenance).toContain('acme/api#63');
    expect(instance.metadata.issues).toEqual(['acme/api#63']);
    expect(typeof instance.suite === 'object' && instance.suite.tests.map((t) => t.repo)).toEqual([
      'acme/api',
      'acme/web',
      'acme/cli',
    ]);

    const screened = (await readFile(path.join(root, 'out', 'screened-out.jsonl'), 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(screened.map((s) => s.reason.code).sort()).toEqual(['conflict', 'not-substantive']);
    const docs = screened.find((s) => s.reason.code === 'not-substantive');
    expect(docs.repos).toEqual(['acme/api', 'acme/docs']);
    expect(docs.reason.message).toContain('acme/docs only touches');
    const conflict = screened.find((s) => s.reason.code === 'conflict');
    expect(conflict.reason.repo).toBe('acme/web');
    expect(result.summary()).toContain('2 candidate(s)');
  });

  it('screens out a set over --max-repos, naming the cap', async () => {
    const out = path.join(root, 'capped', 'candidates.jsonl');
    const result = await mineGit({
      // A token in a URL is for fetching only: it never reaches the candidates.
      repos: ['api', 'web', 'cli'].map((n) => ({
        repo: `acme/${n}`,
        url: url(n).replace('http://', 'http://x-access-token:s3cret@'),
        ref: 'main',
      })),
      since: new Date('2020-01-01'),
      windowMs: 14 * 86_400_000,
      cacheDir: path.join(root, 'cache'),
      out,
      settings: {
        maxRepos: 2,
        maxFiles: 40,
        maxLines: 1500,
        suite: () => 'suite.yaml',
      },
    });
    const three = result.screened.find((s) => s.repos.length === 3);
    expect(three?.reason).toEqual({
      code: 'too-many-repositories',
      message: 'the set spans 3 repositories (more than --max-repos 2)',
    });
    // The two-repository set (api#80, with web's conflicting commits) is still screened for its conflict.
    expect(result.screened.map((s) => s.reason.code).sort()).toEqual(['conflict', 'too-many-repositories']);
    const written = await readFile(out, 'utf8');
    expect(written).toContain(`"url":"${url('web')}"`);
    expect(written).not.toContain('s3cret');
  });
});
