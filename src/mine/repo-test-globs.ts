/**
 * A repository's test globs at one revision: every ecosystem's defaults plus what its own config
 * files (`package.json` scripts, jest, vitest, mocha, pytest) name (`core/test-config.ts`).
 */
import { isTestConfigFile, repositoryTestGlobs } from '../core/test-config.ts';
import { git } from '../engine/git/git.ts';

/** Config files read per repository: enough for monorepos, bounded for huge trees. */
const MAX_CONFIG_FILES = 80;
const MAX_DEPTH = 4;

export async function testGlobsAt(gitDir: string, rev: string): Promise<string[]> {
  const listed = await git(['ls-tree', '-r', '--name-only', '-z', rev], { cwd: gitDir, allowFailure: true });
  if (listed.code !== 0) return repositoryTestGlobs([]);
  const paths = listed.stdout
    .split('\0')
    .filter((p) => p && isTestConfigFile(p) && p.split('/').length <= MAX_DEPTH)
    .slice(0, MAX_CONFIG_FILES);
  const files: Array<{ path: string; text: string }> = [];
  for (const p of paths) {
    const shown = await git(['show', `${rev}:${p}`], { cwd: gitDir, allowFailure: true });
    if (shown.code === 0) files.push({ path: p, text: shown.stdout.slice(0, 256 * 1024) });
  }
  return repositoryTestGlobs(files);
}
