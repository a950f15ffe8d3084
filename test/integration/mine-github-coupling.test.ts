/**
 * `tandem mine github` against the GitHub stand-in, with the cues that need no text: a consumer
 * PR that bumps the producer to the version of its GitHub release and adapts to its renamed
 * function (read from the PRs' diffs), while a third repository's bump of the producer's old
 * version stays out; and a reverse link the issue's timeline misses (GitHub answers 410), found
 * by search and read although merged after `--until`. Every exchange is held to GitHub's OpenAPI
 * description.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BenchInstance, benchInstanceSchema } from '../../src/core/bench-instance.schema.ts';
import { mineGitHub } from '../../src/mine/mine-github.ts';
import { type Files, revParse } from '../helpers/git-fixtures.ts';
import { DAY, type MinedOrg, minedOrg } from '../helpers/mined-org.ts';
import { checkExchange } from '../support/github-openapi.ts';
import type { StandIn } from '../support/github-standin/index.ts';

const T0 = Date.parse('2024-05-01');
let org: MinedOrg;
let root: string;
let gh: StandIn;
let libBase = '';
let appBase = '';
let trackerIssue = 0;

const pkg = (o: object) => `${JSON.stringify(o, null, 2)}\n`;

/** A PR merged `day` days after T0, its files listed as GitHub lists them (the diff cues read them). */
const mergedPr = (name: string, files: Files, pr: { title: string; body?: string; day: number }) =>
  org.mergedPr(name, files, { title: pr.title, body: pr.body, mergedAt: T0 + pr.day * DAY, listFiles: true });

const LIB_PKG = (version: string) => pkg({ name: '@acme/lib', version, scripts: { test: 'node test.js' } });
const APP_PKG = (range: string) =>
  pkg({ name: 'app', dependencies: { '@acme/lib': range, 'left-pad': '^1.3.0' } });
const TOOLS_PKG = (range: string, pad: string) =>
  pkg({ name: 'tools', dependencies: { '@acme/lib': range, 'left-pad': pad } });

beforeAll(async () => {
  const initial: Record<string, Files> = {
    lib: {
      'package.json': LIB_PKG('1.0.0'),
      'src/index.js': 'export function loadSettings(f) {\n  return { f };\n}\n',
    },
    app: {
      'package.json': APP_PKG('^1.0.0'),
      'src/main.js': "import { loadSettings } from '@acme/lib';\nexport const s = () => loadSettings('a');\n",
    },
    tools: { 'package.json': TOOLS_PKG('^0.9.0', '^1.1.0'), 'src/tool.js': 'export const tool = 1;\n' },
    svc: { 'src/export.js': 'export const timeout = 30;\n' },
    ops: { 'src/proxy.js': 'export const proxyTimeout = 30;\n' },
  };
  org = await minedOrg('tandem-mine-gh-coupling-', initial);
  ({ root, gh } = org);

  const rename = await mergedPr(
    'lib',
    {
      'src/index.js': 'export function readSettings(f) {\n  return { f, parsed: true };\n}\n',
      'test.js': "import { readSettings } from './src/index.js';\nreadSettings('x');\n",
    },
    { title: 'Settings from any path', day: 1 },
  );
  libBase = rename.parent;
  const release = await mergedPr(
    'lib',
    { 'package.json': LIB_PKG('2.0.0') },
    { title: 'Prepare the next version', day: 2 },
  );
  gh.addTag({ owner: 'acme', repo: 'lib', name: 'v2.0.0', sha: release.sha });
  gh.addRelease({
    owner: 'acme',
    repo: 'lib',
    tagName: 'v2.0.0',
    publishedAt: new Date(T0 + 2 * DAY + 60_000).toISOString(),
  });
  await mergedPr(
    'tools',
    { 'package.json': TOOLS_PKG('^1.0.0', '^1.3.0'), 'src/tool.js': 'export const tool = 2;\n' },
    { title: 'Update dependencies', day: 3 },
  );
  appBase = await revParse(org.repos.app!, 'main');
  await mergedPr(
    'app',
    {
      'package.json': APP_PKG('^2.0.0'),
      'src/main.js': "import { readSettings } from '@acme/lib';\nexport const s = () => readSettings('a');\n",
      'test/main.test.js': "import { s } from '../src/main.js';\ns();\n",
    },
    { title: 'Upgrade the settings reader', day: 4 },
  );
  gh.setFile('acme', 'lib', 'package.json', LIB_PKG('2.0.0'));
  gh.setFile('acme', 'app', 'package.json', APP_PKG('^2.0.0'));
  gh.setFile('acme', 'tools', 'package.json', TOOLS_PKG('^1.0.0', '^1.3.0'));

  // The reverse link: ops names the issue, but was merged after --until and the timeline is gone.
  trackerIssue = gh.addIssue({
    owner: 'acme',
    repo: 'tracker',
    title: 'Exports time out',
    body: 'After 30 s.',
  }).number;
  await mergedPr(
    'svc',
    { 'src/export.js': 'export const timeout = 60;\n' },
    { title: 'Longer export timeout', body: `Closes acme/tracker#${trackerIssue}`, day: 5 },
  );
  await mergedPr(
    'ops',
    { 'src/proxy.js': 'export const proxyTimeout = 60;\n' },
    { title: 'Proxy timeout', body: `For acme/tracker#${trackerIssue}.`, day: 12 },
  );
});

afterAll(() => org?.close());

describe('tandem mine github: cues without text, and reverse links', () => {
  it('links the bump to the release and the renamed symbol; finds the PR the timeline missed', async () => {
    gh.failNext({
      status: 410,
      path: `/repos/acme/tracker/issues/${trackerIssue}/timeline`,
      message: 'This issue was deleted',
    });
    const out = path.join(root, 'out', 'candidates.jsonl');
    const result = await mineGitHub({
      ...org.mineDefaults(),
      since: new Date(T0),
      until: new Date(T0 + 10 * DAY),
      windowMs: 14 * DAY,
      out,
    });
    const instances: BenchInstance[] = result.output.candidates.map((c) => benchInstanceSchema.parse(c));
    const names = instances
      .map((i) =>
        i.repos
          .map((r) => r.repo)
          .sort()
          .join(' '),
      )
      .sort();
    expect(names).toEqual(['acme/app acme/lib', 'acme/ops acme/svc']);
    expect(result.output.screened).toEqual([]);

    const coupled = instances.find((i) => i.repos.some((r) => r.repo === 'acme/lib'))!;
    const lib = coupled.repos.find((r) => r.repo === 'acme/lib')!;
    const app = coupled.repos.find((r) => r.repo === 'acme/app')!;
    expect(lib.base_commit).toBe(libBase);
    expect(app.base_commit).toBe(appBase);
    expect(lib.test_patch).toContain('test.js');
    expect(lib.patch).not.toContain('diff --git a/test.js');
    expect(app.test_patch).toContain('test/main.test.js');
    expect(app.patch).toContain('package.json');
    const [link] = coupled.metadata.links as Array<{
      from: string;
      to: string[];
      score: number;
      evidence: unknown[];
    }>;
    expect(link!.from).toBe('acme/app#1');
    expect(link!.to).toEqual(['acme/lib#1', 'acme/lib#2']);
    expect(link!.evidence).toEqual([
      {
        kind: 'dependency-bump',
        package: '@acme/lib',
        file: 'package.json',
        from: '^1.0.0',
        to: '^2.0.0',
        release: { how: 'tag', name: 'v2.0.0' },
      },
      { kind: 'symbols', symbols: ['loadSettings', 'readSettings'], dependsOnProducer: true },
    ]);
    expect(link!.score).toBeGreaterThan(0.9);
    expect((coupled.metadata.repositories as Record<string, { tags: string[] }>)['acme/lib']!.tags).toEqual([
      'v2.0.0',
    ]);

    const reverse = instances.find((i) => i.repos.some((r) => r.repo === 'acme/svc'))!;
    expect(result.reverseLinks).toBe(1);
    expect(reverse.metadata.issues).toEqual([`acme/tracker#${trackerIssue}`]);
    expect(reverse.problem_statement).toBe('Exports time out\n\nAfter 30 s.');
    expect(reverse.provenance).toEqual(
      expect.arrayContaining([expect.stringMatching(/\/acme\/tracker\/issues\/\d+$/)]),
    );
    expect(gh.requests.some((r) => r.path === '/search/issues')).toBe(true);

    // The stand-in answered as GitHub describes itself (injected failures aside).
    const problems = gh.requests
      .filter((r) => r.status < 400 && !r.path.startsWith('/_'))
      .flatMap((e) => checkExchange(e));
    expect(problems).toEqual([]);
  });
});
