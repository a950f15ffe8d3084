/**
 * What an isolated test group (suite `isolate`) is spared: the writes of the groups before it.
 * Once setup has ended, a root exec copies the repository folders, /tmp and /dev/shm into a
 * folder steps cannot reach (`/tandem/snapshot`, root-only); before each isolated group after
 * the first, another root exec empties them and copies the snapshot back. Both run inside the
 * container, never on the host: a link PR code planted (or swaps in meanwhile) can only point
 * within the container, whose root file system is read-only. The folders are restored in place,
 * not replaced, where a bind mount depends on them: mounted folders (prepared dependencies,
 * wired checkouts) are neither copied nor emptied, and the folders holding them, and the wired
 * checkouts themselves, are kept and refilled. Pure script text; docker-sandbox.ts runs it.
 */
import path from 'node:path';
import type { ConfigurationRunSpec } from '../sandbox/sandbox.ts';
import { SHELL } from '../sandbox/step-wrapper.ts';
import { insidePath, SNAPSHOT, WORKSPACE } from './docker-layout.ts';

/** Live tree → its copy in the snapshot. /dev/shm may be absent (an engine without IPC). */
const TREES: Array<[string, string]> = [
  [WORKSPACE, `${SNAPSHOT}/w`],
  ['/tmp', `${SNAPSHOT}/t`],
  ['/dev/shm', `${SNAPSHOT}/m`],
];

/** Whether a configuration needs the snapshot: an isolated group follows another group. */
export function needsSnapshot(spec: Pick<ConfigurationRunSpec, 'tests'>): boolean {
  return spec.tests.some((t, i) => i > 0 && t.isolate === true);
}

/**
 * The paths (inside the container) a restore must not replace: `mounted`, bind-mount targets
 * (skipped whole), and `holders`, folders a mount lies in or a wired checkout (kept, refilled).
 */
export function keptPaths(spec: Pick<ConfigurationRunSpec, 'readonlyMounts' | 'links'>): {
  mounted: string[];
  holders: string[];
} {
  const inside = (rel: string) => `${WORKSPACE}/${insidePath(rel)}`;
  const links = spec.links ?? [];
  const mounted = [
    ...spec.readonlyMounts.map((m) => inside(m.workspacePath)),
    ...links.map((l) => inside(l.target)),
  ];
  const holders = new Set<string>();
  for (const p of [...mounted, ...links.map((l) => inside(l.source))]) {
    for (let d = path.posix.dirname(p); d.length > WORKSPACE.length; d = path.posix.dirname(d))
      holders.add(d);
  }
  for (const l of links) holders.add(inside(l.source));
  return { mounted: [...new Set(mounted)], holders: [...holders] };
}

/** Root exec: copies what setup left into the snapshot. */
export function snapshotCommand(kept: ReturnType<typeof keptPaths>): string[] {
  const copies = TREES.map(([live, copy]) => `keep ${live} ${copy}`).join(' && ');
  const script = `${helpers(kept)}
copy_out() {
  local e n
  for e in "$1"/* "$1"/.[!.]* "$1"/..?*; do
    { [ -e "$e" ] || [ -L "$e" ]; } || continue
    mounted "$e" && continue
    n=\${e##*/}
    if holder "$e" && [ -d "$e" ] && [ ! -L "$e" ]; then
      mkdir "$2/$n" && copy_out "$e" "$2/$n" || return 1
    else
      cp -a "$e" "$2/$n" || return 1
    fi
  done
}
keep() { [ -d "$1" ] || return 0; mkdir "$2" && copy_out "$1" "$2"; }
${copies}`;
  return [SHELL, '-c', script];
}

/** Root exec: empties the live trees (but what `kept` keeps) and copies the snapshot back. */
export function restoreCommand(kept: ReturnType<typeof keptPaths>): string[] {
  const restores = TREES.map(([live, copy]) => `back ${live} ${copy}`).join(' && ');
  const script = `${helpers(kept)}
clean() {
  local e
  for e in "$1"/* "$1"/.[!.]* "$1"/..?*; do
    { [ -e "$e" ] || [ -L "$e" ]; } || continue
    mounted "$e" && continue
    if holder "$e" && [ -d "$e" ] && [ ! -L "$e" ]; then clean "$e" || return 1; else rm -rf "$e" || return 1; fi
  done
}
fill() {
  local e n
  for e in "$1"/* "$1"/.[!.]* "$1"/..?*; do
    { [ -e "$e" ] || [ -L "$e" ]; } || continue
    n=\${e##*/}
    if [ -d "$2/$n" ] && [ ! -L "$2/$n" ]; then fill "$e" "$2/$n" || return 1; else cp -a "$e" "$2/$n" || return 1; fi
  done
}
back() { [ -d "$2" ] || return 0; clean "$1" && fill "$2" "$1"; }
${restores}`;
  return [SHELL, '-c', script];
}

/** `mounted` and `holder` tests over literal paths (quoted: no glob in a suite path matches more). */
function helpers(kept: ReturnType<typeof keptPaths>): string {
  const alternatives = (paths: string[]) => (paths.length > 0 ? paths.map(quote).join('|') : "''");
  return `mounted() { case "$1" in ${alternatives(kept.mounted)}) return 0 ;; esac; return 1; }
holder() { case "$1" in ${alternatives(kept.holders)}) return 0 ;; esac; return 1; }`;
}

function quote(s: string): string {
  return `'${s.replaceAll("'", "'\\''")}'`;
}
