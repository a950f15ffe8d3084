/**
 * `tandem mine github` against the GitHub stand-in over HTTP, with real repositories served by
 * git over HTTP: PR sets linked each way (Depends-On, a shared issue through a closing keyword
 * and the issue's timeline, same head branch within the window, references across three
 * repositories), a docs-only side screened out, a rate limit waited out.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BenchInstance, benchInstanceSchema } from '../../src/core/bench-instance.schema.ts';
import { mineGitHub } from '../../src/mine/mine-github.ts';
import { runCli } from '../helpers/example-cases.ts';
import { commitOn, type Files, revParse } from '../helpers/git-fixtures.ts';
import { DAY, MINE_TOKEN, type MinedOrg, minedOrg } from '../helpers/mined-org.ts';
import type { GitHttpServer } from '../support/git-http-server.ts';
import type { StandIn } from '../support/github-standin/index.ts';

let root: string;
let git: GitHttpServer;
let gh: StandIn;
let org: MinedOrg;
let repos: MinedOrg['repos'];
let opsMainSha = '';

/** A merged PR (on 2024-05-01 unless `mergedAt` says otherwise); its number. */
async function mergedPr(
  name: string,
  files: Files,
  pr: { title: string; body?: string; branch?: string; mergedAt?: number },
): Promise<number> {
  return (await org.mergedPr(name, files, { ...pr, mergedAt: pr.mergedAt ?? Date.parse('2024-05-01') }))
    .number;
}

beforeAll(async () => {
  const readme = (name: string) => ({
    'src/index.ts': 'export const version = 1;\n',
    'README.md': `# ${name}\n`,
  });
  org = await minedOrg(
    'tandem-mine-gh-',
    Object.fromEntries(['api', 'web', 'cli', 'docs', 'ops'].map((name) => [name, readme(name)])),
  );
  ({ root, git, gh, repos } = org);

  // A: Depends-On, one way.
  const api1 = await mergedPr(
    'api',
    { 'src/money.ts': 'export function money(n: number): string {\n  return String(n);\n}\n' },
    { title: 'Money type' },
  );
  await mergedPr(
    'web',
    { 'src/price.ts': 'export const price = 1;\n' },
    { title: 'Show prices', body: `Depends-On: acme/api#${api1}` },
  );
  // B: one issue, closed by a cli PR, referenced by an ops PR only through the issue's timeline.
  const issue = gh.addIssue({
    owner: 'acme',
    repo: 'tracker',
    title: 'Exports time out',
    body: 'Large exports fail after 30 s.',
  });
  await mergedPr(
    'cli',
    { 'src/export.ts': 'export const timeout = 60;\n', 'test/export.test.ts': 'test\n' },
    { title: 'Longer export timeout', body: `Closes acme/tracker#${issue.number}` },
  );
  const ops1 = await mergedPr(
    'ops',
    { 'src/proxy.ts': 'export const proxyTimeout = 60;\n' },
    { title: 'Proxy timeout' },
  );
  gh.crossReference(
    { owner: 'acme', repo: 'tracker', number: issue.number },
    { owner: 'acme', repo: 'ops', number: ops1 },
  );
  // C: the same head branch, merged three days apart, no text linking them.
  await mergedPr(
    'api',
    { 'src/rates.ts': 'export const rate = 2;\n' },
    { title: 'Rates', branch: 'feat/rates', mergedAt: Date.parse('2024-05-02') },
  );
  await mergedPr(
    'web',
    { 'src/rates.ts': 'export const showRate = true;\n' },
    { title: 'Rates UI', branch: 'feat/rates', mergedAt: Date.parse('2024-05-05') },
  );
  // D: the docs side only touches docs.
  const cli2 = await mergedPr(
    'cli',
    { 'src/flag.ts': 'export const verbose = false;\n' },
    { title: 'Verbose flag' },
  );
  await mergedPr(
    'docs',
    { 'README.md': '# docs\n\n--verbose\n' },
    { title: 'Document the flag', body: `Documents acme/cli#${cli2}` },
  );
  // E: three repositories, linked by a URL and a trailer.
  const api3 = await mergedPr('api', { 'src/tax.ts': 'export const tax = 0.2;\n' }, { title: 'Tax' });
  const web3 = await mergedPr(
    'web',
    { 'src/tax.ts': 'export const showTax = true;\n' },
    { title: 'Tax UI', body: `Needs https://github.com/acme/api/pull/${api3}` },
  );
  await mergedPr(
    'cli',
    { 'src/tax.ts': 'export const printTax = true;\n' },
    { title: 'Tax in the CLI', body: `Related-to: acme/web#${web3}` },
  );
  // F: an ops PR whose head stays on its branch (no merge commit known): its side is the head on its merge base.
  const opsMain = await revParse(repos.ops!, 'main');
  opsMainSha = opsMain;
  const auditSha = await commitOn(
    repos.ops!,
    'feat/audit',
    { 'src/audit.ts': 'export const audit = true;\n' },
    'Audit log',
    { from: 'main' },
  );
  const audit = gh.addPullRequest({
    owner: 'acme',
    repo: 'ops',
    title: 'Audit log',
    body: '',
    headRef: 'feat/audit',
    headSha: auditSha,
    baseSha: opsMain,
    merged: true,
    mergedAt: new Date(Date.parse('2024-05-01')).toISOString(),
    commits: [{ sha: auditSha, message: 'Audit log', parents: [opsMain] }],
  });
  await mergedPr(
    'api',
    { 'src/audit.ts': 'export const auditApi = true;\n' },
    { title: 'Audit API', body: `Depends-On: acme/ops#${audit.number}` },
  );
  // Outside the date range: never read as a change.
  await mergedPr(
    'ops',
    { 'src/old.ts': 'export const old = 1;\n' },
    { title: 'Old', body: `Depends-On: acme/api#${api1}`, mergedAt: Date.parse('2019-01-01') },
  );
});

afterAll(() => org?.close());

describe('tandem mine github', () => {
  it('finds the linked PR sets of an organization and screens out the docs-only one', async () => {
    const out = path.join(root, 'out', 'candidates.jsonl');
    gh.rateLimitNext(1, 'secondary');
    const result = await mineGitHub({
      ...org.mineDefaults(),
      since: new Date('2024-01-01'),
      windowMs: 14 * DAY,
      out,
    });
    const instances: BenchInstance[] = (await readFile(out, 'utf8'))
      .trim()
      .split('\n')
      .map((l) => benchInstanceSchema.parse(JSON.parse(l)));
    const sets = instances.map((i) =>
      i.repos
        .map((r) => r.repo)
        .sort()
        .join(' '),
    );
    expect(sets.sort()).toEqual(
      [
        'acme/api acme/web',
        'acme/api acme/web',
        'acme/api acme/cli acme/web',
        'acme/cli acme/ops',
        'acme/api acme/ops',
      ].sort(),
    );

    const viaIssue = instances.find((i) => i.repos.map((r) => r.repo).join(' ') === 'acme/cli acme/ops')!;
    expect(viaIssue.problem_statement).toBe('Exports time out\n\nLarge exports fail after 30 s.');
    expect(viaIssue.metadata.needs_rewrite).toBe(false);
    expect(viaIssue.repos[0]!.test_patch).toContain('test/export.test.ts');
    expect(viaIssue.provenance).toEqual(
      expect.arrayContaining([expect.stringMatching(/\/acme\/tracker\/issues\/\d+$/)]),
    );

    const viaHead = instances.find((i) =>
      i.repos.some((r) => r.patch.includes('src/audit.ts') && r.repo === 'acme/ops'),
    )!;
    expect(viaHead.repos.find((r) => r.repo === 'acme/ops')!.base_commit).toBe(opsMainSha);

    const viaBranch = instances.find((i) => i.metadata.shared_branches)!;
    expect(viaBranch.metadata.shared_branches).toEqual(['feat/rates']);
    expect(viaBranch.repos[0]!.patch).toContain('src/rates.ts');

    const viaDepends = instances.find((i) => i.repos[0]!.patch.includes('src/money.ts'))!;
    expect(viaDepends.metadata.needs_rewrite).toBe(true);
    expect(viaDepends.problem_statement).toContain('Money type');
    expect(viaDepends.metadata.interface).toEqual([
      {
        file: 'acme/api:src/money.ts',
        name: 'money',
        kind: 'Function',
        signature: 'export function money(n: number): string',
        change: 'added',
      },
      {
        file: 'acme/web:src/price.ts',
        name: 'price',
        kind: 'Variable',
        signature: 'const price',
        change: 'added',
      },
    ]);
    // The base is the commit the PR was merged onto; the URL has no token in it.
    expect(viaDepends.repos[0]!.url).toBe(`${git.url}/api.git`);

    const screened = (await readFile(path.join(root, 'out', 'screened-out.jsonl'), 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(screened).toHaveLength(1);
    expect(screened[0].reason.code).toBe('not-substantive');
    expect(screened[0].reason.message).toContain('acme/docs only touches docs or changelogs (README.md)');

    expect(result.pullsScanned).toBe(14); // every merged PR listed, the 2019 one included (it is filtered after)
    expect(result.rateLimits).toBe(1);
    expect(result.apiRequests).toBeGreaterThan(0);
  });

  it('runs as `tandem mine github` on chosen repositories, waiting out a primary rate limit', async () => {
    const out = path.join(root, 'cli-out', 'candidates.jsonl');
    gh.rateLimitNext(1, 'primary');
    const result = await runCli(
      [
        'mine',
        'github',
        '--org',
        'acme',
        '--repo',
        'acme/api',
        '--repo',
        'acme/web',
        '--since',
        '2024-01-01',
        '--api-url',
        gh.url,
        '--out',
        out,
        '--cache-dir',
        path.join(root, 'cache'),
      ],
      { GITHUB_TOKEN: MINE_TOKEN },
    );
    expect(result.stderr).toContain('7 pull requests scanned');
    expect(result.stderr).toContain('1 rate limits waited out');
    expect(result.stderr).toContain('3 candidate(s)');
    expect(result.code).toBe(0);
    const lines = (await readFile(out, 'utf8')).trim().split('\n');
    // Depends-On (A), the shared branch (C), and E without acme/cli, which was not read.
    expect(lines.map((l) => benchInstanceSchema.parse(JSON.parse(l)).repos.length)).toEqual([2, 2, 2]);
  });

  it('says which --repo the token cannot read (exit 2), and that a failing API is infrastructure (exit 3)', async () => {
    const common = [
      '--since',
      '2024-01-01',
      '--api-url',
      gh.url,
      '--out',
      path.join(root, 'err-out', 'c.jsonl'),
    ];
    const missing = await runCli(['mine', 'github', '--org', 'acme', '--repo', 'acme/nope', ...common], {
      GITHUB_TOKEN: MINE_TOKEN,
    });
    expect(missing.stderr).toContain('--repo acme/nope: not found, or GITHUB_TOKEN cannot read it (404)');
    expect(missing.code).toBe(2);

    const refused = await runCli(['mine', 'github', '--org', 'acme', ...common], { GITHUB_TOKEN: 'wrong' });
    expect(refused.stderr).toContain('--org acme: GitHub refused the token (401)');
    expect(refused.code).toBe(2);

    gh.failNext({ status: 422, path: '/repos/acme/web/pulls', message: 'Validation Failed' });
    const broken = await runCli(['mine', 'github', '--org', 'acme', '--repo', 'acme/web', ...common], {
      GITHUB_TOKEN: MINE_TOKEN,
    });
    expect(broken.stderr).toContain(
      'infrastructure error (fetch): merged pull requests of acme/web: GitHub answered 422',
    );
    expect(broken.code).toBe(3);
  });
});
