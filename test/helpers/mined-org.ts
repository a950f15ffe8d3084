/**
 * An organization for `tandem mine github` tests: `acme/<name>` repositories made from given
 * files, served by git over HTTP and registered with a GitHub stand-in that answers the miner's
 * token (plus an issue-only `acme/tracker`); PRs are seeded merged as GitHub lands them (rebase
 * merge), their heads pushed where GitHub keeps them (`refs/pull/<n>/head`).
 */
import path from 'node:path';
import { git as runGit } from '../../src/engine/git/git.ts';
import { chunkPath, diffChunks } from '../../src/mine/diff-lines.ts';
import { type GitHttpServer, startGitHttpServer } from '../support/git-http-server.ts';
import { type StandIn, startGitHubStandIn } from '../support/github-standin/index.ts';
import {
  commitOn,
  createRepo,
  type Files,
  type FixtureRepo,
  makeTempDir,
  pushRef,
  removeTempDir,
  revParse,
} from './git-fixtures.ts';

/** The token the miner is given (the stand-in's user `miner`). */
export const MINE_TOKEN = 'mine-token';
export const DAY = 86_400_000;

export interface MergedPull {
  title: string;
  body?: string;
  /** The head branch (default: `<repo>-<title as a slug>`). */
  branch?: string;
  /** When it merged, epoch ms. */
  mergedAt: number;
  /** List the PR's files with their hunks, as GitHub does (default: none listed). */
  listFiles?: boolean;
}

export interface MinedOrg {
  root: string;
  git: GitHttpServer;
  gh: StandIn;
  repos: Record<string, FixtureRepo>;
  /** Commits `files` on `name`'s main as the merged PR `pr` and records the PR. */
  mergedPr(
    name: string,
    files: Files,
    pr: MergedPull,
  ): Promise<{ number: number; sha: string; parent: string }>;
  /** What every `mineGitHub` call of these tests passes: the org, the token, the stand-in, a cache, limits. */
  mineDefaults(): {
    org: string;
    token: string;
    apiUrl: string;
    cacheDir: string;
    settings: { maxRepos: number; maxFiles: number; maxLines: number; suite: () => string };
  };
  close(): Promise<void>;
}

export async function minedOrg(prefix: string, initial: Record<string, Files>): Promise<MinedOrg> {
  const root = await makeTempDir(prefix);
  const repos: Record<string, FixtureRepo> = {};
  for (const [name, files] of Object.entries(initial)) repos[name] = await createRepo(root, name, files);
  const git = await startGitHttpServer(root);
  const gh = await startGitHubStandIn({ tokens: { [MINE_TOKEN]: 'miner' } });
  for (const name of Object.keys(repos))
    gh.addRepo({ owner: 'acme', name, cloneUrl: `${git.url}/${name}.git` });
  gh.addRepo({ owner: 'acme', name: 'tracker' });
  return {
    root,
    git,
    gh,
    repos,
    async mergedPr(name, files, pr) {
      const repo = repos[name]!;
      const parent = await revParse(repo, 'main');
      const sha = await commitOn(repo, 'main', files, pr.title);
      const seeded = gh.addPullRequest({
        owner: 'acme',
        repo: name,
        title: pr.title,
        body: pr.body ?? '',
        headRef: pr.branch ?? `${name}-${pr.title.toLowerCase().replace(/\W+/g, '-')}`,
        headSha: sha,
        baseSha: parent,
        merged: true,
        mergedAt: new Date(pr.mergedAt).toISOString(),
        mergeCommitSha: sha,
        commits: [{ sha, message: pr.title, parents: [parent] }],
        ...(pr.listFiles ? { files: await filesOf(repo, parent, sha) } : {}),
      });
      await pushRef(repo, sha, `refs/pull/${seeded.number}/head`);
      return { number: seeded.number, sha, parent };
    },
    mineDefaults: () => ({
      org: 'acme',
      token: MINE_TOKEN,
      apiUrl: gh.url,
      cacheDir: path.join(root, 'cache'),
      settings: { maxRepos: 5, maxFiles: 40, maxLines: 1500, suite: () => 'suite.yaml' },
    }),
    async close() {
      await gh.close();
      await git.close();
      await removeTempDir(root);
    },
  };
}

/** The PR's files as GitHub lists them: per file, its hunks as `patch`. */
async function filesOf(repo: FixtureRepo, parent: string, sha: string) {
  const { stdout } = await runGit(['diff', '--no-renames', parent, sha], { cwd: repo.work });
  return diffChunks(stdout).map((chunk) => {
    const at = chunk.indexOf('\n@@');
    const patch = at < 0 ? '' : chunk.slice(at + 1).replace(/\n$/, '');
    const lines = patch.split('\n');
    return {
      filename: chunkPath(chunk),
      status: /^new file/m.test(chunk)
        ? ('added' as const)
        : /^deleted file/m.test(chunk)
          ? ('removed' as const)
          : ('modified' as const),
      additions: lines.filter((l) => l.startsWith('+')).length,
      deletions: lines.filter((l) => l.startsWith('-')).length,
      patch,
    };
  });
}
