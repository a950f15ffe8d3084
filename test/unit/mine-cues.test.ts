import { describe, expect, it } from 'vitest';
import { cuesInPullRequest, cuesInText } from '../../src/mine/cues.ts';
import { mergedBranchName } from '../../src/mine/git-history.ts';
import { linkComponents, parseWindow, sameBranchPairs } from '../../src/mine/link-graph.ts';

const api = { owner: 'acme', repo: 'api' };
const targets = (cues: { target: string }[]) => cues.map((c) => c.target);

describe('cuesInText (commit messages)', () => {
  it('reads closing keywords for the own repository: Fixes #63, Closes GH-63', () => {
    const cues = cuesInText('Fix rounding of totals\n\nFixes #63\nCloses GH-64', api);
    expect(cues).toEqual([
      { kind: 'closes', target: 'acme/api#63', text: 'Fixes #63' },
      { kind: 'closes', target: 'acme/api#64', text: 'Closes GH-64' },
    ]);
  });

  it('reads messy trailers, misspelt keys included, as links to another repository', () => {
    const msg = [
      'web: show the new currency field',
      '',
      'Related-to: acme/schema#63',
      'Refrences: Acme/Billing#7',
      'Signed-off-by: Jo Dev <jo@example.com>',
    ].join('\n');
    expect(cuesInText(msg, api)).toEqual([
      { kind: 'trailer', target: 'acme/schema#63', text: 'Related-to: acme/schema#63' },
      { kind: 'trailer', target: 'acme/billing#7', text: 'Refrences: Acme/Billing#7' },
    ]);
  });

  it('reads issue and PR URLs on any host, and closing keywords before them', () => {
    const msg =
      'Resolves https://github.example.com/acme/schema/issues/63 and see https://github.com/acme/web/pull/9/files';
    expect(cuesInText(msg, api)).toEqual([
      {
        kind: 'closes',
        target: 'acme/schema#63',
        text: 'Resolves https://github.example.com/acme/schema/issues/63',
      },
      { kind: 'reference', target: 'acme/web#9', text: 'https://github.com/acme/web/pull/9' },
    ]);
  });

  it('keeps Depends-On trailers in commits, and the squash-merge PR number', () => {
    const msg = 'Add totals endpoint (#12)\n\nDepends-On: acme/schema#4';
    expect(cuesInText(msg, api)).toEqual([
      { kind: 'reference', target: 'acme/api#12', text: '#12' },
      { kind: 'depends-on', target: 'acme/schema#4', text: 'Depends-On: acme/schema#4' },
    ]);
  });

  it('ignores look-alikes: colours, anchors, paths, version numbers, e-mail', () => {
    const msg = [
      'Set colour to #fff and link docs/intro.md#setup',
      'Bump to v1.2.3 (see a/b/c#4 in the vendored path)',
      'Mail me at jo@acme.io#1x, issue &#63; html entity',
    ].join('\n');
    expect(cuesInText(msg, api)).toEqual([]);
  });
});

describe('cuesInPullRequest', () => {
  it('combines Depends-On (App parser), closing keywords and commit messages; drops self-references', () => {
    const cues = cuesInPullRequest(
      {
        owner: 'acme',
        repo: 'web',
        number: 8,
        title: 'Checkout shows currency (#8)',
        body: 'Depends-On: https://github.com/acme/api/pull/12\n\nCloses acme/tracker#63, needs [the schema](https://github.com/acme/schema/pull/5)',
      },
      ['wip\n\nRelated-to: acme/schema#5'],
    );
    expect(cues.map((c) => `${c.kind} ${c.target}`)).toEqual([
      'depends-on acme/api#12',
      'closes acme/tracker#63',
      'reference acme/schema#5',
    ]);
  });

  it('finds nothing inside code blocks, inline code or HTML comments of a body', () => {
    const body = [
      '```',
      'Depends-On: acme/api#12',
      'Fixes acme/web#1',
      '```',
      '',
      '    Fixes acme/web#2 (indented code)',
      '',
      'Example: `acme/web#3` <!-- acme/web#4 -->',
    ].join('\n');
    expect(targets(cuesInPullRequest({ ...api, number: 1, title: 't', body }))).toEqual([]);
  });
});

describe('linkComponents', () => {
  const unit = (id: string, repo: string, cues: string[], extra: { branch?: string; at?: number } = {}) => ({
    id,
    repo,
    ownKeys: [id.includes('#') ? id : `${id}#0`],
    cues: cues.map((t) => ({ kind: 'reference' as const, target: t, text: t })),
    at: extra.at ?? 0,
    ...(extra.branch ? { branch: extra.branch } : {}),
  });

  it('joins changes through a shared issue and direct references, both ways', () => {
    const comps = linkComponents(
      [
        unit('acme/api#1', 'acme/api', ['acme/tracker#63']),
        unit('acme/web#2', 'acme/web', ['acme/tracker#63']),
        unit('acme/cli#3', 'acme/cli', []),
        unit('acme/docs#4', 'acme/docs', ['acme/cli#3']),
        unit('acme/ops#5', 'acme/ops', []),
      ],
      { windowMs: 0 },
    );
    expect(comps.map((c) => c.units)).toEqual([
      ['acme/api#1', 'acme/web#2'],
      ['acme/cli#3', 'acme/docs#4'],
      ['acme/ops#5'],
    ]);
    expect(comps[0]!.repos).toEqual(['acme/api', 'acme/web']);
  });

  it('joins same-named branches of different repositories within the window only', () => {
    const day = 86_400_000;
    const units = [
      unit('acme/api#1', 'acme/api', [], { branch: 'feat/currency', at: 0 }),
      unit('acme/web#1', 'acme/web', [], { branch: 'feat/currency', at: 3 * day }),
      unit('acme/cli#1', 'acme/cli', [], { branch: 'feat/currency', at: 40 * day }),
      unit('acme/ops#1', 'acme/ops', [], { branch: 'main', at: 0 }),
      unit('acme/db#1', 'acme/db', [], { branch: 'main', at: 0 }),
    ];
    const comps = linkComponents(units, { windowMs: 14 * day });
    expect(comps[0]).toEqual({
      units: ['acme/api#1', 'acme/web#1'],
      repos: ['acme/api', 'acme/web'],
      sharedBranches: ['feat/currency'],
      links: [
        {
          from: 'acme/web#1',
          to: ['acme/api#1'],
          evidence: [{ kind: 'same-branch', branch: 'feat/currency' }],
          score: 0.6,
        },
      ],
    });
    expect(comps).toHaveLength(4);
    expect(sameBranchPairs(units, 14 * day)).toHaveLength(1);
  });

  it('parses windows', () => {
    expect(parseWindow('14d')).toBe(14 * 86_400_000);
    expect(parseWindow('36h')).toBe(36 * 3_600_000);
    expect(parseWindow('two weeks')).toBeUndefined();
  });
});

describe('mergedBranchName', () => {
  it("reads the branch of GitHub's and git's merge messages", () => {
    expect(mergedBranchName('Merge pull request #4 from acme/feat/sync\n\nSync')).toBe('feat/sync');
    expect(mergedBranchName("Merge branch 'feat/x' into main")).toBe('feat/x');
    expect(mergedBranchName("Merge remote-tracking branch 'origin/hotfix'")).toBe('hotfix');
    expect(mergedBranchName('Fix merge of branch x')).toBeUndefined();
  });
});
