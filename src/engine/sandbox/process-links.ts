/**
 * Wiring links in the process sandbox: symlinks to the producer's folder in the workspace. A
 * link that would have to be made inside a prepared folder (a symlink into the shared cache
 * here) is refused: writing there would change the cache for every other configuration. On the
 * way to a link, links and files of the (private) workspace copy are replaced, never followed.
 */
import { realpath, rm, symlink } from 'node:fs/promises';
import path from 'node:path';
import { InfraError } from '../../core/errors.ts';
import { ensureMountpoint, isUnder } from '../wiring/mountpoints.ts';
import type { ConfigurationRunSpec } from './sandbox.ts';

export async function linkWiring(spec: ConfigurationRunSpec): Promise<string[]> {
  const root = await realpath(spec.workspaceDir);
  const made: string[] = [];
  for (const l of spec.links ?? []) {
    if (spec.readonlyMounts.some((m) => isUnder(m.workspacePath, l.target))) {
      throw new InfraError(
        'engine',
        `the process sandbox cannot wire ${l.target}: it lies inside a prepared folder (use the docker sandbox)`,
      );
    }
    const link = path.join(root, l.target);
    await ensureMountpoint(root, path.posix.dirname(l.target));
    await rm(link, { recursive: true, force: true });
    await symlink(path.join(root, l.source), link, 'dir');
    made.push(link);
  }
  return made;
}

/** The variables of `workspaceEnv` with host paths. */
export function workspaceVariables(spec: ConfigurationRunSpec): Record<string, string> {
  return Object.fromEntries(
    Object.entries(spec.workspaceEnv ?? {}).map(([name, paths]) => [
      name,
      paths.map((p) => path.join(path.resolve(spec.workspaceDir), p)).join(path.delimiter),
    ]),
  );
}
