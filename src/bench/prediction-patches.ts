/**
 * A prediction → one candidate diff per repository of its instance: `model_patches` as given,
 * `model_patch` split by folder, the instance's gold patches for the `gold` model. For a
 * one-repository instance `model_patch` is SWE-bench's standard prediction: paths relative to
 * the repository. It is read as folder-prefixed only when every path starts with the
 * repository's folder while the gold patch's do not (a repository holding a folder of its own
 * name, like `requests/requests/`, keeps its paths).
 */
import type { BenchInstance } from '../core/bench-instance.schema.ts';
import { type BenchPrediction, GOLD_MODEL } from '../core/bench-prediction.schema.ts';
import { workspaceName } from '../core/case.schema.ts';
import { InputError } from '../core/errors.ts';
import { patchPaths, splitJointPatch } from './joint-patch.ts';

/** Whether a one-repository diff names its files under the repository's workspace folder. */
function folderPrefixed(diff: string, repo: { repo: string; patch: string }): boolean {
  const folder = `${workspaceName(repo.repo)}/`;
  const under = (d: string) => {
    const paths = patchPaths(d);
    return paths.length > 0 && paths.every((f) => f.startsWith(folder));
  };
  return under(diff) && !under(repo.patch);
}

export interface PredictionPatches {
  /** SWE-bench's `patch_is_None`: no patch given at all. */
  patchIsNone: boolean;
  /** SWE-bench's `patch_exists`: some repository gets a non-empty diff. */
  patchExists: boolean;
  patches: Record<string, string>;
}

export function goldPatches(instance: BenchInstance): Record<string, string> {
  return Object.fromEntries(instance.repos.map((r) => [r.repo, r.patch]));
}

export function predictionPatches(
  p: BenchPrediction,
  instance: BenchInstance,
  where: string,
): PredictionPatches {
  const repos = instance.repos.map((r) => r.repo);
  let patches: Record<string, string> | undefined;
  if (p.model_patches) {
    patches = {};
    for (const [key, diff] of Object.entries(p.model_patches)) {
      // Keys may be `owner/name` or the workspace folder name.
      const repo = repos.find((r) => r === key || workspaceName(r) === key);
      if (!repo) {
        throw new InputError(
          `${where}: prediction for "${p.instance_id}": field "model_patches.${key}": no repository "${key}" in the instance (have: ${repos.join(', ')})`,
          undefined,
          `model_patches.${key}`,
        );
      }
      patches[repo] = diff ?? '';
    }
  } else if (typeof p.model_patch === 'string') {
    patches = !p.model_patch.trim()
      ? {}
      : repos.length === 1 && !folderPrefixed(p.model_patch, instance.repos[0]!)
        ? { [repos[0]!]: p.model_patch }
        : splitJointPatch(p.model_patch, repos, `${where}: "${p.instance_id}"`);
  } else if (p.model_name_or_path === GOLD_MODEL) {
    patches = goldPatches(instance);
  }
  if (!patches) return { patchIsNone: true, patchExists: false, patches: {} };
  return { patchIsNone: false, patchExists: Object.values(patches).some((d) => d.trim() !== ''), patches };
}
