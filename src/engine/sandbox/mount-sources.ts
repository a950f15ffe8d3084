/**
 * The last check before a configuration's container is created: every bind-mount source is a
 * real folder (Docker resolves a source on the host, so a link would mount whatever it points
 * at), and sources taken from inside the workspace — a tree PR code shaped — stay inside it
 * with no link on the way.
 */
import { lstat } from 'node:fs/promises';
import { InfraError } from '../../core/errors.ts';
import { assertConfined, UnconfinedPathError } from '../confined-path.ts';
import type { ConfigurationRunSpec } from './sandbox.ts';

export async function assertMountSources(
  spec: ConfigurationRunSpec,
  workspaceSources: readonly string[],
  own: readonly string[],
): Promise<void> {
  const refuse = (what: string): never => {
    throw new InfraError('engine', `refusing to mount ${what}: a mount source must be a real folder`, {
      configuration: spec.configurationId,
    });
  };
  for (const dir of [
    spec.workspaceDir,
    spec.resultsDir,
    ...own,
    ...spec.readonlyMounts.map((m) => m.hostPath),
  ]) {
    const st = await lstat(dir).catch(() => undefined);
    if (!st?.isDirectory()) refuse(dir);
  }
  for (const source of workspaceSources) {
    try {
      await assertConfined(spec.workspaceDir, source, 'directory', 'a workspace folder');
    } catch (err) {
      if (!(err instanceof UnconfinedPathError)) throw err;
      refuse(`${err.message}`);
    }
  }
}
