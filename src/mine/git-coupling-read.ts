/**
 * What the coupling cue reads from a git mirror: each first-parent commit's diff (against its
 * first parent; lockfiles left out), the tags and the commits they point at, and the manifests
 * at the tip (who publishes which package, who depends on it).
 */
import { manifestEcosystem } from '../core/dependency-manifests.ts';
import { git } from '../engine/git/git.ts';
import { type FileDiff, fileDiffs } from './diff-lines.ts';
import type { RepoManifests } from './package-index.ts';

/** Pathspecs left out of commit diffs: lockfiles and vendored trees say nothing about coupling. */
const EXCLUDED = [
  ':(exclude,glob)**/package-lock.json',
  ':(exclude,glob)**/yarn.lock',
  ':(exclude,glob)**/pnpm-lock.yaml',
  ':(exclude,glob)**/go.sum',
  ':(exclude,glob)**/*.lock',
  ':(exclude,glob)**/node_modules/**',
  ':(exclude,glob)**/vendor/**',
];
const MAX_DIFF_BYTES = 256 * 1024 * 1024;

/** Per commit SHA, its files' added and removed lines (first-parent commits of the range). */
export async function commitDiffs(
  repoDir: string,
  tip: string,
  range: { since: Date; until?: Date },
): Promise<Map<string, FileDiff[]>> {
  const { stdout } = await git(
    [
      'log',
      '--first-parent',
      '--diff-merges=first-parent',
      '-p',
      '--unified=0',
      '--no-renames',
      '--no-color',
      '--no-ext-diff',
      '--format=%x1e%H',
      `--since=${range.since.toISOString()}`,
      ...(range.until ? [`--until=${range.until.toISOString()}`] : []),
      tip,
      '--',
      '.',
      ...EXCLUDED,
    ],
    { cwd: repoDir, maxBuffer: MAX_DIFF_BYTES },
  );
  const out = new Map<string, FileDiff[]>();
  for (const record of stdout.split('\x1e')) {
    const nl = record.indexOf('\n');
    const sha = (nl < 0 ? record : record.slice(0, nl)).trim();
    if (/^[0-9a-f]{40,64}$/.test(sha)) out.set(sha, fileDiffs(nl < 0 ? '' : record.slice(nl + 1)));
  }
  return out;
}

/** Tags and the commit each points at (annotated tags peeled). */
export async function tagsOf(repoDir: string): Promise<Array<{ name: string; sha: string }>> {
  const { stdout } = await git(
    ['for-each-ref', '--format=%(refname:short)%00%(objectname)%00%(*objectname)', 'refs/tags'],
    { cwd: repoDir },
  );
  return stdout
    .split('\n')
    .filter(Boolean)
    .map((l) => {
      const [name = '', sha = '', peeled = ''] = l.split('\0');
      return { name, sha: peeled || sha };
    });
}

const MAX_MANIFESTS = 60;

/** The manifests at `rev`, outside dependency folders, at most four folders deep. */
export async function manifestsAt(repoDir: string, repo: string, rev: string): Promise<RepoManifests> {
  const listed = await git(['ls-tree', '-r', '--name-only', '-z', rev], { cwd: repoDir, allowFailure: true });
  const paths = listed.stdout
    .split('\0')
    .filter(
      (p) =>
        p &&
        manifestEcosystem(p) &&
        p.split('/').length <= 4 &&
        !/(?:^|\/)(?:node_modules|vendor|testdata|fixtures?)\//.test(p),
    )
    .slice(0, MAX_MANIFESTS);
  const files: Array<{ path: string; text: string }> = [];
  for (const p of paths) {
    const shown = await git(['show', `${rev}:${p}`], { cwd: repoDir, allowFailure: true });
    if (shown.code === 0) files.push({ path: p, text: shown.stdout.slice(0, 512 * 1024) });
  }
  return { repo, files };
}
