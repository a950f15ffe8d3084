/**
 * Dependency preparation, once per repository state and cached across evaluations. The suite's
 * `prepare` commands run in a scratch copy of the state (with network); the folders they create
 * (`outputs`, e.g. node_modules) move into `<cache>/deps/<key>/` and are mounted read-only into
 * every configuration.
 *
 * Who may share a prepared folder (the cache-poisoning rule): an install runs the state's own
 * scripts (postinstall, a `prep.sh`), so its output is only as trustworthy as the whole tree it
 * ran on. A base state on a trusted branch (reviewed code, prepare/base-trust.ts) is keyed by
 * `key_files` when the suite names them, else by its tree; a PR head, and a base off every trusted
 * branch, is always keyed by its whole tree, so it never shares a folder with base or with another
 * PR unless their trees are identical. Every output must end up a real folder inside
 * the cache: a link (a PR committing `node_modules -> /`) fails the prepare instead of mounting
 * the host.
 */
import { createHash } from 'node:crypto';
import { lstat, mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { InfraError } from '../../core/errors.ts';
import { commandList, type PrepareSpec as SuitePrepare } from '../../core/suite.schema.ts';
import { assertConfined, isStrictlyWithin, UnconfinedPathError } from '../confined-path.ts';
import { withDirLock } from '../dir-lock.ts';
import { copyTree, exists, present, removeTree } from '../fs-util.ts';
import type { ReadonlyMount, Sandbox, SandboxLimits } from '../sandbox/sandbox.ts';
import { DOWNLOAD_CACHE_VARIABLES } from '../sandbox/step-sequence.ts';
import { prepareMountpoints } from '../wiring/mountpoints.ts';
import { PrepareFailedError } from './prepare-failure.ts';
import { seedOutputs } from './prepare-seed.ts';

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
  /**
   * A base state on a trusted branch: keyed by `key_files`, and its install shares the download
   * cache. Otherwise (a PR head, a base off every trusted branch: untrusted scripts) the state is
   * keyed by its whole tree whatever `key_files` say, with no download cache.
   */
  shared: boolean;
  spec: SuitePrepare;
  image: string;
  imageId: string;
  /** Wiring mount points (relative to the repository) the prepared folders must contain. */
  mountpoints?: string[];
  /** A head's base prepared folder (its key) to start from: an incremental install. */
  seedKey?: string;
}

export interface PrepareContext {
  cacheDir: string;
  sandbox: Sandbox;
  limits: SandboxLimits;
  network: string;
  caBundle?: string;
  /** Host folder of the package managers' download cache for this image (npm, pip, Go). */
  downloadCache?: string;
  signal?: AbortSignal;
}

export async function prepareKey(req: PrepareRequest): Promise<string> {
  const h = createHash('sha256').update(
    JSON.stringify({ run: commandList(req.spec.run), outputs: req.spec.outputs, imageId: req.imageId }),
  );
  // Only with wiring, so prepared folders of suites without it keep their keys.
  if (req.mountpoints?.length) h.update(`mountpoints:${JSON.stringify(req.mountpoints)}`);
  // A seeded install's output depends on what it started from.
  if (req.seedKey) h.update(`seed:${req.seedKey}`);
  if (req.spec.key_files && req.shared) {
    for (const f of req.spec.key_files) h.update(`\0${f}\0`).update(await keyFileContent(req.stateDir, f));
  } else {
    h.update(`tree:${req.stateTree}`);
  }
  return h.digest('hex').slice(0, 32);
}

/** A key file's bytes, read only when it is a regular file reached without links (never /dev/zero). */
async function keyFileContent(stateDir: string, rel: string): Promise<Buffer | string> {
  const file = path.resolve(stateDir, rel);
  try {
    await assertConfined(stateDir, file, 'file', rel);
  } catch (err) {
    if (!(err instanceof UnconfinedPathError)) throw err;
    try {
      const st = await lstat(file);
      return `(not a regular file: mode ${st.mode})`;
    } catch {
      return '(absent)';
    }
  }
  return readFile(file);
}

/** The package managers' download cache for one image, kept across evaluations. */
export function downloadCacheDir(cacheDir: string, imageId: string): string {
  return path.join(cacheDir, 'downloads', createHash('sha256').update(imageId).digest('hex').slice(0, 16));
}

const inFlight = new Map<string, Promise<PreparedDeps>>();

export function prepareDeps(req: PrepareRequest, ctx: PrepareContext): Promise<PreparedDeps> {
  return prepareKey(req).then((key) => {
    // States that share a key within this process share one preparation.
    const running = inFlight.get(key);
    // Only the caller that started the preparation reports it as done; joiners reused it.
    // A joiner may be another repository with an identical tree: the folders are shared, but they
    // are mounted under the joiner's own name (the key covers `outputs`, so they pair up in order).
    if (running)
      return running.then((r) => ({
        ...r,
        mounts: r.mounts.map((m, i) => ({
          ...m,
          workspacePath: path.posix.join(req.name, req.spec.outputs[i]!),
        })),
        reused: true,
        durationMs: 0,
      }));
    const p = runPrepare(key, req, ctx).finally(() => inFlight.delete(key));
    inFlight.set(key, p);
    return p;
  });
}

async function runPrepare(key: string, req: PrepareRequest, ctx: PrepareContext): Promise<PreparedDeps> {
  const dir = path.join(ctx.cacheDir, 'deps', key);
  // Checked on every use, reused or fresh: a mount source must be a real folder in the cache.
  const mounts = async (): Promise<ReadonlyMount[]> =>
    Promise.all(
      req.spec.outputs.map(async (o) => {
        const hostPath = path.join(dir, o);
        await confinedOutput(dir, hostPath, req.repo, o);
        return { hostPath, workspacePath: path.posix.join(req.name, o) };
      }),
    );
  const started = Date.now();
  if (await exists(path.join(dir, '.complete')))
    return { key, mounts: await mounts(), reused: true, durationMs: 0 };
  return withDirLock(dir, async () => {
    if (await exists(path.join(dir, '.complete')))
      return { key, mounts: await mounts(), reused: true, durationMs: 0 };
    const scratch = path.join(ctx.cacheDir, 'tmp', `prepare-${key}-${process.pid}`);
    await removeTree(scratch);
    await copyTree(req.stateDir, scratch);
    if (ctx.downloadCache && req.shared) {
      for (const sub of Object.values(DOWNLOAD_CACHE_VARIABLES))
        await mkdir(path.join(ctx.downloadCache, sub), { recursive: true });
    }
    if (req.seedKey)
      await seedOutputs(path.join(ctx.cacheDir, 'deps', req.seedKey), scratch, req.spec.outputs);
    try {
      const out = await ctx.sandbox.prepare({
        image: req.image,
        repoDir: scratch,
        repoName: req.name,
        commands: commandList(req.spec.run),
        timeoutSec: req.spec.timeout,
        limits: ctx.limits,
        network: ctx.network,
        egressAllow: req.spec.network.allow,
        egressLimits: req.spec.network.limits,
        ...(ctx.caBundle ? { caBundle: ctx.caBundle } : {}),
        // Trusted base states (reviewed code) share the download cache; any other install could poison it.
        ...(ctx.downloadCache && req.shared ? { downloadCache: ctx.downloadCache } : {}),
        outputCapBytes: 16_384,
        ...(ctx.signal ? { signal: ctx.signal } : {}),
      });
      if (out.exitCode !== 0) {
        const why = out.timedOut
          ? `timed out after ${req.spec.timeout}s`
          : out.oomKilled
            ? 'was killed for exceeding its memory limit'
            : `exited with ${out.exitCode}`;
        throw new PrepareFailedError(req.repo, why, out);
      }
      await removeTree(dir);
      await mkdir(dir, { recursive: true });
      for (const o of req.spec.outputs) {
        const src = path.join(scratch, o);
        // A declared output the install did not create is mounted as an empty folder.
        if (!(await present(src))) {
          await mkdir(path.join(dir, o), { recursive: true });
          continue;
        }
        // Before moving: `rename` through a linked parent would move a host folder into the cache.
        // The install's own doing, so on a PR head it fails that head like a failed command.
        await confinedOutput(scratch, src, req.repo, o).catch((err: unknown) => {
          if (!(err instanceof InfraError)) throw err;
          throw new PrepareFailedError(req.repo, `left an unusable output: ${err.message}`, {
            ...out,
            outputTail: '',
          });
        });
        await mkdir(path.dirname(path.join(dir, o)), { recursive: true });
        await rename(src, path.join(dir, o));
      }
      await prepareMountpoints(dir, req.spec.outputs, req.mountpoints ?? []);
      await writeFile(path.join(dir, '.complete'), new Date().toISOString());
      return { key, mounts: await mounts(), reused: false, durationMs: Date.now() - started };
    } finally {
      await removeTree(scratch);
    }
  });
}

async function confinedOutput(root: string, p: string, repo: string, output: string): Promise<void> {
  if (!isStrictlyWithin(root, p)) {
    throw new InfraError('prepare', `prepare output "${output}" of ${repo} leaves the repository`, {
      target: repo,
    });
  }
  try {
    await assertConfined(root, p, 'directory', `prepare output "${output}"`);
  } catch (err) {
    if (!(err instanceof UnconfinedPathError)) throw err;
    throw new InfraError(
      'prepare',
      `${err.message} for ${repo}: outputs must be real folders (a symbolic link is never mounted)`,
      { target: repo },
    );
  }
}
