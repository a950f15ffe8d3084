/**
 * A world for landing linked sets against the GitHub stand-in: repositories `acme/<name>` backed
 * by real bare git repositories (merges, refs and GitHub's merge queue act on them), an
 * installation client as the App has, and PRs opened from real commits. Used by the landing
 * tests and by the landing bench (perf/landing-bench.ts).
 */
import { join } from 'node:path';
import { gitOut } from '../../src/engine/git/git.ts';
import type { Landing } from '../../src/github/land-set.ts';
import type { GitHub } from '../../src/github/octokit.ts';
import { buildTestedCommit } from '../../src/github/tested-commits.ts';
import { commitOn, createRepo, type FixtureRepo } from '../helpers/git-fixtures.ts';
import { cleanTempDir, useCleanup } from '../helpers/test-cleanup.ts';
import { standInClient } from '../unit/app-fixtures.ts';
import { type StandIn, startGitHubStandIn } from './github-standin/index.ts';
import { setGitDir } from './github-standin/routes/merges.ts';
import { setBranch } from './github-standin/routes/repos.ts';

export interface OpenedPull {
  /** `acme/<repo>#n`. */
  pull: string;
  repo: string;
  number: number;
  head: string;
}

export interface LandingWorld {
  s: StandIn;
  gh: GitHub;
  fixtures: Map<string, FixtureRepo>;
  /** Opens a PR on `acme/<name>` from a new branch off `main`'s current tip, changing `files`. */
  open(name: string, branch: string, files: Record<string, string>): Promise<OpenedPull>;
  /** `main`'s tip in the bare repository (the truth, not the stand-in's records). */
  tip(name: string): Promise<string>;
  tree(name: string, sha: string): Promise<string>;
  close(): Promise<void>;
}

/**
 * For a test file: `world(names)` makes a landing world in a fresh temporary folder; every world a
 * test made is closed and its folder removed after the test.
 */
export function useLandingWorlds(prefix: string): (names: string[]) => Promise<LandingWorld> {
  const cleanup = useCleanup();
  return async (names) => {
    const root = await cleanTempDir(cleanup, prefix);
    const w = await landingWorld(root, names);
    cleanup(() => w.close());
    return w;
  };
}

export async function landingWorld(root: string, names: string[]): Promise<LandingWorld> {
  const s = await startGitHubStandIn();
  const fixtures = new Map<string, FixtureRepo>();
  for (const name of names) {
    const repo = await createRepo(join(root, 'acme'), name, { [`${name}.txt`]: `${name} 1\n` });
    s.addRepo({ owner: 'acme', name });
    setGitDir(s.state, 'acme', name, repo.bare);
    setBranch(s.state, 'acme', name, 'main', repo.sha);
    fixtures.set(name, repo);
  }
  const fixture = (name: string) => {
    const f = fixtures.get(name);
    if (!f) throw new Error(`landing world: no repository ${name}`);
    return f;
  };
  const tip = async (name: string) =>
    (await gitOut(['rev-parse', 'refs/heads/main'], { cwd: fixture(name).bare })).trim();
  return {
    s,
    gh: standInClient(s),
    fixtures,
    tip,
    tree: async (name, sha) =>
      (await gitOut(['rev-parse', `${sha}^{tree}`], { cwd: fixture(name).bare })).trim(),
    async open(name, branch, files) {
      const base = await tip(name);
      // The work clone learns what landed in the bare repository before branching off its tip.
      await gitOut(['fetch', '--quiet', 'origin'], { cwd: fixture(name).work });
      const head = await commitOn(fixture(name), branch, files, `change ${branch}`, { from: base });
      const pr = s.addPullRequest({
        owner: 'acme',
        repo: name,
        title: branch,
        headRef: branch,
        headSha: head,
        baseRef: 'main',
        baseSha: base,
      });
      return { pull: `acme/${name}#${pr.number}`, repo: `acme/${name}`, number: pr.number, head };
    },
    close: () => s.close(),
  };
}

/** The branch and files of one member of a set opened by `openTestedSet`. */
export type MemberChange = (name: string) => { branch: string; files: Record<string, string> };

const featureChange: MemberChange = (name) => ({
  branch: `feature-${name}`,
  files: { [`${name}-feature.txt`]: `${name} feature\n` },
});

/**
 * One PR per repository, each tested onto its base tip (what the evaluation ran on): the landings
 * of one set in the order of `names` (producer first) and the PRs they land.
 */
export async function openTestedSet(
  w: LandingWorld,
  names: readonly string[],
  itemId: string,
  change: MemberChange = featureChange,
): Promise<{ landings: Landing[]; pulls: OpenedPull[] }> {
  const landings: Landing[] = [];
  const pulls: OpenedPull[] = [];
  for (const name of names) {
    const { branch, files } = change(name);
    const pr = await w.open(name, branch, files);
    const onto = await w.tip(name);
    const built = await buildTestedCommit(w.gh, {
      repo: pr.repo,
      baseBranch: 'main',
      onto,
      heads: [pr.head],
      itemId,
      pulls: [pr.pull],
    });
    if (!('sha' in built)) throw new Error(`${itemId}: unexpected conflict ${built.conflict}`);
    landings.push({
      pull: pr.pull,
      repo: pr.repo,
      baseBranch: 'main',
      expectedTip: onto,
      testedSha: built.sha,
    });
    pulls.push(pr);
  }
  return { landings, pulls };
}
