/**
 * The unprivileged user every setup and test step runs as in the Docker sandbox. It is never
 * the uid of the container's PID 1 (root) nor of Tandem's own execs (root), so a step can
 * neither signal nor trace them (`/proc/1/mem` needs ptrace rights); with no-new-privileges it
 * gains no capability back. Where Tandem itself runs unprivileged, steps run as its uid (the
 * files it copies are then theirs already); where it runs as root, as STEP_UID, and the folders
 * a step must write (workspace, its results folder) are handed to that uid first.
 */
import { execFile } from 'node:child_process';
import { chmod, chown, readdir } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** Not 0, not 65534 (nobody, which images may use for their own daemons). */
export const STEP_UID = 10_000;

const hostUid = typeof process.getuid === 'function' ? process.getuid() : 0;

/** `uid:gid` for `docker exec --user`. */
export function stepUser(): string {
  const uid = hostUid === 0 ? STEP_UID : hostUid;
  return `${uid}:${uid}`;
}

/** The same for one folder Tandem just made (no walk). */
export async function giveToStepUser(dir: string): Promise<void> {
  if (hostUid !== 0) return;
  await chown(dir, STEP_UID, STEP_UID);
}

/**
 * Gives the step user the repository folders of a workspace Tandem made (a no-op when Tandem is
 * not root; links are not followed), never the workspace root itself
 * (nor the files Tandem writes there, such as go.work): steps run in the root, so PR code must
 * not drop a `pytest.py`, `sitecustomize.py` or `.npmrc` there for a later group to load.
 */
export async function giveReposToStepUser(workspaceDir: string): Promise<void> {
  if (hostUid !== 0) return;
  const entries = await readdir(workspaceDir, { withFileTypes: true });
  const repos = entries.filter((e) => e.isDirectory()).map((e) => path.join(workspaceDir, e.name));
  if (repos.length > 0) await run('chown', ['-R', '-h', `${STEP_UID}:${STEP_UID}`, ...repos]);
  await chown(workspaceDir, 0, 0);
  await chmod(workspaceDir, 0o755);
}
