/**
 * `tandem bench derive single-side` (CrossSWE's controlled comparison): from each N-repository
 * instance, N instances in which the other repositories are context already at their gold state
 * (base + gold patch + test patch, as in a gold run) and one repository is left to change. The
 * gold states are commits pushed to bare repositories beside the output file, so the derived
 * instances are self-contained. Lists are dropped: `tandem bench validate` derives them again,
 * since F2P tests of the other repositories now pass at base.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { BenchInstance } from '../core/bench-instance.schema.ts';
import { workspaceName } from '../core/case.schema.ts';
import { InfraError } from '../core/errors.ts';
import { exists } from '../engine/fs-util.ts';
import { git } from '../engine/git/git.ts';
import { MirrorCache } from '../engine/git/git-mirror.ts';
import { BenchStates } from './bench-states.ts';
import { loadInstances } from './instances-file.ts';
import { toJsonLines } from './json-lines.ts';

export async function deriveSingleSide(
  instancesFile: string,
  out: string,
  cacheDir: string,
): Promise<{ derived: number; skipped: string[] }> {
  const loaded = await loadInstances(instancesFile);
  const outFile = path.resolve(out);
  const outDir = path.dirname(outFile);
  const reposDir = path.join(outDir, `${path.basename(outFile).replace(/\.jsonl?$/, '')}.repos`);
  const states = new BenchStates(cacheDir, new MirrorCache(cacheDir));
  const rows: unknown[] = [];
  const skipped: string[] = [];
  for (const l of loaded) {
    const { instance } = l;
    if (instance.repos.length < 2) {
      skipped.push(instance.instance_id);
      continue;
    }
    const goldAt = new Map<string, { url: string; commit: string }>();
    for (const r of instance.repos) {
      const state = await states.candidate(r, r.patch);
      if (!state.ok) {
        throw new InfraError(
          'patch-failed',
          `${l.source}: the gold patch of ${r.repo} does not apply: ${state.message}`,
          {
            target: r.repo,
          },
        );
      }
      const bare = path.join(reposDir, `${workspaceName(r.repo)}.git`);
      if (!(await exists(path.join(bare, 'HEAD')))) {
        await mkdir(reposDir, { recursive: true });
        await git(['init', '--quiet', '--bare', bare]);
      }
      const store = await states.storeFor(r);
      await git(['fetch', '--quiet', store, `+${state.sha}:refs/heads/gold/${instance.instance_id}`], {
        cwd: bare,
      });
      goldAt.set(r.repo, { url: path.relative(outDir, bare), commit: state.sha });
    }
    const suite =
      typeof instance.suite === 'string'
        ? path.relative(outDir, path.resolve(path.dirname(l.source.replace(/:\d+$/, '')), instance.suite))
        : instance.suite;
    for (const r of instance.repos) {
      const derived: BenchInstance = {
        ...instance,
        instance_id: `${instance.instance_id}.single-${workspaceName(r.repo)}`,
        repos: [r],
        context: [
          ...instance.context,
          ...instance.repos
            .filter((o) => o.repo !== r.repo)
            .map((o) => ({ repo: o.repo, url: goldAt.get(o.repo)!.url, commit: goldAt.get(o.repo)!.commit })),
        ],
        suite,
        metadata: { ...instance.metadata, single_side: { from: instance.instance_id, repo: r.repo } },
      };
      delete derived.FAIL_TO_PASS;
      delete derived.PASS_TO_PASS;
      rows.push(derived);
    }
  }
  await mkdir(outDir, { recursive: true });
  await writeFile(outFile, toJsonLines(rows));
  return { derived: rows.length, skipped };
}
