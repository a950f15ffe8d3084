/**
 * Applies the suite's wiring to one configuration's assembled workspace: computes the links,
 * the repeated prepared mounts and the variables (wiring-layout.ts), and writes the go.work
 * at the workspace root when Go modules are wired.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Wiring } from '../../core/suite.schema.ts';
import type { ReadonlyMount, WorkspaceLink } from '../sandbox/sandbox.ts';
import { GO_WORK, goDirective, goWorkFile, type WiredRepo, wiringLayout } from './wiring-layout.ts';

export interface WorkspaceWiring {
  links: WorkspaceLink[];
  readonlyMounts: ReadonlyMount[];
  workspaceEnv: Record<string, string[]>;
}

export async function wireWorkspace(
  wiring: Wiring[],
  repos: WiredRepo[],
  workspaceDir: string,
  nested: boolean,
): Promise<WorkspaceWiring> {
  if (wiring.length === 0) return { links: [], readonlyMounts: [], workspaceEnv: {} };
  const layout = wiringLayout(wiring, repos, nested);
  if (layout.goModules.length > 0) {
    const versions = await Promise.all(
      layout.goModules.map((m) =>
        readFile(path.join(workspaceDir, m, 'go.mod'), 'utf8').then(goDirective, () => undefined),
      ),
    );
    const known = versions.filter((v): v is string => v !== undefined);
    await writeFile(path.join(workspaceDir, GO_WORK), goWorkFile(layout.goModules, known));
  }
  return { links: layout.links, readonlyMounts: layout.readonlyMounts, workspaceEnv: layout.workspaceEnv };
}
