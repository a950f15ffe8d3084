/**
 * Which repository publishes which package and which repositories depend on which: read from
 * the manifests at each repository's tip (`core/dependency-manifests.ts`). The coupling cue
 * asks it who made the package a consumer bumped. Pure.
 */
import {
  manifestEntries,
  manifestPackage,
  normalPackageName,
  type PackageEcosystem,
} from '../core/dependency-manifests.ts';
import { RepoMap } from '../core/repo-name.ts';
import type { PackageIndex } from './coupling.ts';

export interface RepoManifests {
  repo: string;
  /** Manifests at the tip: repository-relative path and text. */
  files: ReadonlyArray<{ path: string; text: string }>;
}

const key = (eco: PackageEcosystem, name: string) => `${eco}:${normalPackageName(eco, name)}`;

export function packageIndex(
  repos: readonly RepoManifests[],
): PackageIndex & { published: RepoMap<string[]> } {
  const owners = new Map<string, string>();
  const depends = new RepoMap<Set<string>>();
  const published = new RepoMap<string[]>();
  for (const r of repos) {
    const deps = new Set<string>();
    depends.set(r.repo, deps);
    const own: string[] = [];
    published.set(r.repo, own);
    for (const f of r.files) {
      const pkg = manifestPackage(f.path, f.text);
      // The first repository to publish a name keeps it: forks and copies come later.
      if (pkg && !owners.has(key(pkg.ecosystem, pkg.name))) {
        owners.set(key(pkg.ecosystem, pkg.name), r.repo);
        own.push(key(pkg.ecosystem, pkg.name));
      }
      for (const e of manifestEntries(f.path, f.text.split(/\r?\n/)))
        if (e.kind === 'dependency') deps.add(key(e.ecosystem, e.name));
    }
  }
  return {
    published,
    owner: (eco, name) => owners.get(key(eco, name)),
    dependsOn: (repo, producer) => {
      const deps = depends.get(repo);
      return !!deps && (published.get(producer) ?? []).some((k) => deps.has(k));
    },
  };
}
