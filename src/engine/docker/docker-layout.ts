/**
 * What a sandbox container looks like: the paths inside, bind mounts, environment, labels,
 * network and resource limits, for a configuration run and for a prepare. Pure: no engine calls.
 */
import path from 'node:path';
import type Docker from 'dockerode';
import type { ConfigurationRunSpec, PrepareSpec, SandboxLimits } from '../sandbox/sandbox.ts';
import { CA_BUNDLE_VARIABLES, DOWNLOAD_CACHE_VARIABLES } from '../sandbox/step-sequence.ts';
import { SHELL } from '../sandbox/step-wrapper.ts';
import { EGRESS_DIR, egressEnv } from './egress-forwarder.ts';

export const WORKSPACE = '/tandem/workspace';
const HIDDEN = '/tandem/hidden';
/** Holds one folder per test group, made right before its step and taken out right after. */
export const RESULTS = '/tandem/results';
/** Holds each step's fresh HOME and TMPDIR (step-scratch.ts). */
export const SCRATCH = '/tandem/scratch';
/** What setup left, for isolated groups; root only (workspace-snapshot.ts). */
export const SNAPSHOT = '/tandem/snapshot';
const CA_PATH = '/etc/ssl/certs/ca-certificates.crt';
const DOWNLOADS = '/tandem/downloads';
/** Every step's HOME: the /tmp tmpfs, writable under the read-only root. */
const HOME = '/tmp';
/** PID 1 of every container: idles and survives `kill -9 -1` (the loop restarts its sleep). */
const IDLE = 'trap "exit 0" TERM; while :; do sleep 3600 & wait; done';

/**
 * Root (PID 1 and Tandem's own execs) runs from a read-only root file system: nothing a step
 * does can replace a binary or a file on PATH that a later exec starts. Writable: the bind
 * mounts, and tmpfs for /tmp (HOME) and /run. Tmpfs counts against the memory limit.
 */
const READ_ONLY_ROOT = {
  ReadonlyRootfs: true,
  Tmpfs: { '/tmp': 'rw,exec,nosuid,nodev,mode=1777', '/run': 'rw,nosuid,nodev,mode=755' },
} satisfies Docker.HostConfig;

/**
 * Defence in depth for untrusted code (configurations and prepares alike): no privilege gain, and
 * only the capabilities a run plausibly needs as root on its own files (no raw sockets, mknod,
 * chroot…).
 */
const UNTRUSTED_PRIVILEGES = {
  SecurityOpt: ['no-new-privileges'],
  CapDrop: ['ALL'],
  CapAdd: ['CHOWN', 'DAC_OVERRIDE', 'FOWNER', 'FSETID', 'KILL', 'SETGID', 'SETUID'],
} satisfies Docker.HostConfig;

export interface ConfigurationContainer {
  options: Docker.ContainerCreateOptions;
  /** Host folders under the workspace that are mounted elsewhere (checked before mounting). */
  workspaceSources: string[];
}

/** Host folders private to one configuration that its container mounts besides the workspace. */
export interface ConfigurationFolders {
  /** Mounted read-only at $TANDEM_HIDDEN; only the running group's files are put in it (hidden-stage.ts). */
  hiddenStage: string;
  /** Each step's HOME and TMPDIR (step-scratch.ts). */
  scratch: string;
  /** Root-only copy of what setup left, for isolated groups (workspace-snapshot.ts); when needed. */
  snapshot?: string;
}

export function configurationContainer(
  spec: ConfigurationRunSpec,
  folders: ConfigurationFolders,
): ConfigurationContainer {
  const configuration = spec.configurationId;
  const workspaceSources = (spec.links ?? []).map((l) => path.join(spec.workspaceDir, insidePath(l.source)));
  const mounts: Docker.MountSettings[] = [
    bind(spec.workspaceDir, WORKSPACE, false),
    ...spec.readonlyMounts.map((m) => bind(m.hostPath, `${WORKSPACE}/${insidePath(m.workspacePath)}`, true)),
    // Docker orders mounts parent-first, so a link inside a prepared folder lands on top of it.
    ...(spec.links ?? []).map((l, i) =>
      bind(workspaceSources[i]!, `${WORKSPACE}/${insidePath(l.target)}`, false),
    ),
    bind(folders.hiddenStage, HIDDEN, true),
    bind(spec.resultsDir, RESULTS, false),
    bind(folders.scratch, SCRATCH, false),
    ...(folders.snapshot ? [bind(folders.snapshot, SNAPSHOT, false)] : []),
  ];
  const options: Docker.ContainerCreateOptions = {
    Image: spec.image,
    Cmd: [SHELL, '-c', IDLE],
    // PID 1 is root; steps run as another uid (step-user.ts) and cannot trace or signal it.
    User: '0:0',
    Labels: { tandem: '1', 'tandem.configuration': configuration },
    WorkingDir: WORKSPACE,
    // Root's (Tandem's own execs); every step gets a HOME and TMPDIR of its own (step-scratch.ts).
    Env: [
      `HOME=${HOME}`,
      `TANDEM_WORKSPACE=${WORKSPACE}`,
      `TANDEM_HIDDEN=${HIDDEN}`,
      `TANDEM_RESULTS=${RESULTS}`,
      `TANDEM_CONFIGURATION=${configuration}`,
      ...Object.entries(spec.workspaceEnv ?? {}).map(
        ([name, paths]) => `${name}=${paths.map((p) => `${WORKSPACE}/${insidePath(p)}`).join(':')}`,
      ),
    ],
    // Both: NetworkDisabled skips network setup entirely (about half the start cost here).
    NetworkDisabled: true,
    HostConfig: {
      NetworkMode: 'none',
      Mounts: mounts,
      ...limitsConfig(spec.limits),
      ...UNTRUSTED_PRIVILEGES,
      ...READ_ONLY_ROOT,
    },
  };
  return { options, workspaceSources };
}

/**
 * `egressDir`: the host folder holding the egress proxy's socket (prepare/egress-proxy.ts),
 * mounted read-only; the container has no network but its loopback, where the forwarder listens.
 */
export function prepareContainer(spec: PrepareSpec, egressDir: string): Docker.ContainerCreateOptions {
  const repoPath = `${WORKSPACE}/${insidePath(spec.repoName)}`;
  const mounts = [bind(spec.repoDir, repoPath, false), bind(egressDir, EGRESS_DIR, true)];
  const env = ['HOME=/tmp', `TANDEM_WORKSPACE=${WORKSPACE}`, ...egressEnv()];
  if (spec.caBundle) {
    mounts.push(bind(spec.caBundle, CA_PATH, true));
    for (const name of CA_BUNDLE_VARIABLES) env.push(`${name}=${CA_PATH}`);
  }
  if (spec.downloadCache) {
    mounts.push(bind(spec.downloadCache, DOWNLOADS, false));
    for (const [name, sub] of Object.entries(DOWNLOAD_CACHE_VARIABLES))
      env.push(`${name}=${DOWNLOADS}/${sub}`);
  }
  return {
    Image: spec.image,
    Cmd: [SHELL, '-c', IDLE],
    User: '0:0',
    Labels: { tandem: '1', 'tandem.prepare': spec.repoName },
    WorkingDir: repoPath,
    Env: env,
    // PR install scripts run here: the same confinement as a configuration, and a way out only
    // to the registries the suite allows, through the egress proxy (no host network, no bridge).
    HostConfig: {
      NetworkMode: 'none',
      Mounts: mounts,
      ...limitsConfig(spec.limits),
      ...UNTRUSTED_PRIVILEGES,
      ...READ_ONLY_ROOT,
    },
  };
}

function bind(source: string, target: string, readOnly: boolean): Docker.MountSettings {
  return { Type: 'bind', Source: path.resolve(source), Target: target, ReadOnly: readOnly };
}

/** A relative path inside the container, refusing anything that would climb out. */
export function insidePath(rel: string): string {
  const norm = path.posix.normalize(rel.split(path.sep).join('/')).replace(/^\/+|\/+$/g, '');
  if (norm === '' || norm === '.' || norm.startsWith('..'))
    throw new Error(`path "${rel}" escapes the workspace`);
  return norm;
}

function limitsConfig(limits: SandboxLimits): Docker.HostConfig {
  const memory = limits.memoryBytes > 0 ? { Memory: limits.memoryBytes, MemorySwap: limits.memoryBytes } : {};
  return {
    ...memory,
    ...(limits.cpus > 0 ? { NanoCpus: Math.round(limits.cpus * 1e9) } : {}),
    ...(limits.pids > 0 ? { PidsLimit: limits.pids } : {}),
  };
}
