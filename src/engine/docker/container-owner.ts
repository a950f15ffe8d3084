/**
 * Which process owns a sandbox container, written on the container as labels, so that a later
 * run can remove containers whose owner died without cleaning up (SIGKILL, a crash, a lost
 * machine). A process is named by its pid, its start time (pids are reused) and its pid
 * namespace and boot id (a pid means nothing in another namespace or after a reboot). Only
 * owners this process can judge — same boot, same pid namespace — are ever declared dead; a
 * container from another machine or container sharing the daemon is left alone.
 */
import { readFileSync, readlinkSync } from 'node:fs';
import type Docker from 'dockerode';

export const OWNER_LABELS = {
  pid: 'tandem.owner.pid',
  start: 'tandem.owner.start',
  pidns: 'tandem.owner.pidns',
  boot: 'tandem.owner.boot',
} as const;

export interface Owner {
  pid: number;
  /** Start time in clock ticks since boot (/proc/<pid>/stat field 22). */
  start: string;
  pidns: string;
  boot: string;
}

/** The owner record of process `pid` as seen from here, or undefined when it is not running. */
export function processOwner(pid: number): Owner | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may hold spaces and parentheses: count fields after the last ')'.
    const start = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
    if (!start) return undefined;
    return { pid, start, pidns: readlinkSync('/proc/self/ns/pid'), boot: bootId() };
  } catch {
    return undefined;
  }
}

let self: Owner | undefined | null = null;

/** This process as an owner; undefined where /proc is not available (then no labels, no sweep). */
export function currentOwner(): Owner | undefined {
  if (self === null) self = processOwner(process.pid);
  return self;
}

export function ownerLabels(owner: Owner | undefined = currentOwner()): Record<string, string> {
  if (!owner) return {};
  return {
    [OWNER_LABELS.pid]: String(owner.pid),
    [OWNER_LABELS.start]: owner.start,
    [OWNER_LABELS.pidns]: owner.pidns,
    [OWNER_LABELS.boot]: owner.boot,
  };
}

/** True only when the labels name an owner we can judge and it is gone; false when unsure. */
function ownerIsDead(labels: Record<string, string> | undefined, me: Owner): boolean {
  const pid = Number(labels?.[OWNER_LABELS.pid]);
  const start = labels?.[OWNER_LABELS.start];
  if (!labels || !Number.isInteger(pid) || pid <= 0 || !start) return false;
  if (labels[OWNER_LABELS.pidns] !== me.pidns) return false;
  // Same pid namespace, another boot: the owner died with that boot.
  if (labels[OWNER_LABELS.boot] !== me.boot) return true;
  const now = processOwner(pid);
  return now === undefined || now.start !== start;
}

/** Removes Tandem containers whose owner is dead; returns how many. Never throws. */
export async function removeOrphans(docker: Docker): Promise<number> {
  const me = currentOwner();
  if (!me) return 0;
  let removed = 0;
  try {
    const list = await docker.listContainers({
      all: true,
      filters: { label: ['tandem=1', OWNER_LABELS.pid] },
    });
    for (const c of list) {
      if (!ownerIsDead(c.Labels, me)) continue;
      try {
        await docker.getContainer(c.Id).remove({ force: true, v: true });
        removed++;
      } catch {
        // Gone meanwhile, or being removed by someone else.
      }
    }
  } catch {
    // The sweep is housekeeping: a daemon that cannot list containers fails the run elsewhere.
  }
  return removed;
}

function bootId(): string {
  try {
    return readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
  } catch {
    return 'unknown';
  }
}
