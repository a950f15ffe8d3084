/**
 * Dependency preparation, once per repository state and cached across evaluations. The suite's
 * `prepare` commands run in a scratch copy of the state (with network); the folders they create
 * (`outputs`, e.g. node_modules) move into `<cache>/deps/<key>/` and are mounted read-only into
 * every configuration. With `key_files`, the key is their content, so base and head usually
 * share one prepared folder; without, it is the state's whole tree.
 */
import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { InfraError } from '../core/errors.ts';
import { commandList, type PrepareSpec as SuitePrepare } from '../core/suite.schema.ts';
import { withDirLock } from './dir-lock.ts';
import { copyTree, exists, removeTree } from './fs-util.ts';
import type { ReadonlyMount, Sandbox, SandboxLimits } from './sandbox.ts';

export interface PreparedDeps {
  key: string;
  mounts: ReadonlyMount[];
  reused: boolean;
  durationMs: number;
}

export interface PrepareRequest {
  repo: string;
  /** Workspace folder name of the repository. */
  name: string;
  stateDir: string;
  stateTree: string;
  spec: SuitePrepare;
  image: string;
  imageId: string;
}

export interface PrepareContext {
  cacheDir: string;
  sandbox: Sandbox;
  limits: SandboxLimits;
  network: string;
  caBundle?: string;
  signal?: AbortSignal;
}

export async function prepareKey(req: PrepareRequest): Promise<string> {
  const h = createHash('sha256').update(
    JSON.stringify({ run: commandList(req.spec.run), outputs: req.spec.outputs, imageId: req.imageId }),
  );
  if (req.spec.key_files) {
    for (const f of req.spec.key_files) {
      h.update(`\0${f}\0`);
      try {
        h.update(await readFile(path.join(req.stateDir, f)));
      } catch {
        h.update('(absent)');
      }
    }
  } else {
    h.update(`tree:${req.stateTree}`);
  }
  return h.digest('hex').slice(0, 32);
}

const inFlight = new Map<string, Promise<PreparedDeps>>();

export function prepareDeps(req: PrepareRequest, ctx: PrepareContext): Promise<PreparedDeps> {
  return prepareKey(req).then((key) => {
    // States that share a key within this process share one preparation.
    const running = inFlight.get(key);
    // Only the caller that started the preparation reports it as done; joiners reused it.
    if (running) return running.then((r) => ({ ...r, reused: true, durationMs: 0 }));
    const p = runPrepare(key, req, ctx).finally(() => inFlight.delete(key));
    inFlight.set(key, p);
    return p;
  });
}

async function runPrepare(key: string, req: PrepareRequest, ctx: PrepareContext): Promise<PreparedDeps> {
  const dir = path.join(ctx.cacheDir, 'deps', key);
  const mounts = (): ReadonlyMount[] =>
    req.spec.outputs.map((o) => ({
      hostPath: path.join(dir, o),
      workspacePath: path.posix.join(req.name, o),
    }));
  const started = Date.now();
  if (await exists(path.join(dir, '.complete')))
    return { key, mounts: mounts(), reused: true, durationMs: 0 };
  return withDirLock(dir, async () => {
    if (await exists(path.join(dir, '.complete')))
      return { key, mounts: mounts(), reused: true, durationMs: 0 };
    const scratch = path.join(ctx.cacheDir, 'tmp', `prepare-${key}-${process.pid}`);
    await removeTree(scratch);
    await copyTree(req.stateDir, scratch);
    try {
      const out = await ctx.sandbox.prepare({
        image: req.image,
        repoDir: scratch,
        repoName: req.name,
        commands: commandList(req.spec.run),
        timeoutSec: req.spec.timeout,
        limits: ctx.limits,
        network: ctx.network,
        ...(ctx.caBundle ? { caBundle: ctx.caBundle } : {}),
        outputCapBytes: 16_384,
        ...(ctx.signal ? { signal: ctx.signal } : {}),
      });
      if (out.exitCode !== 0) {
        const why = out.timedOut
          ? `timed out after ${req.spec.timeout}s`
          : out.oomKilled
            ? 'was killed for exceeding its memory limit'
            : `exited with ${out.exitCode}`;
        throw new InfraError('prepare', `prepare for ${req.repo} ${why}:\n${out.outputTail.slice(-2000)}`, {
          target: req.repo,
        });
      }
      await removeTree(dir);
      await mkdir(dir, { recursive: true });
      for (const o of req.spec.outputs) {
        const src = path.join(scratch, o);
        // A declared output the install did not create is mounted as an empty folder.
        if (await exists(src)) await rename(src, path.join(dir, o));
        else await mkdir(path.join(dir, o), { recursive: true });
      }
      await writeFile(path.join(dir, '.complete'), new Date().toISOString());
      return { key, mounts: mounts(), reused: false, durationMs: Date.now() - started };
    } finally {
      await removeTree(scratch);
    }
  });
}
