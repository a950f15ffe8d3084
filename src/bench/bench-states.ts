/**
 * The repository states of benchmark mode, kept as commits in one local store per repository so
 * the engine takes them like any branch head (mirrored, materialized and prepared once by SHA):
 *
 * - test base: base commit + test patch. Every configuration starts from it, so the evaluator's
 *   tests are in every configuration, gold or not.
 * - candidate: base commit + a candidate patch (gold or predicted), then the test-patch overlay
 *   (WideSWE A.7): every file the test patch touches is taken from the test base, which is clean
 *   base + test patch, and files outside it are left as the candidate made them. An agent's edit
 *   to such a test file can neither break the injection nor survive it.
 *
 * Commits use Tandem's fixed identity and date, so equal inputs give equal SHAs across
 * predictions, runs and machines; each is stored under a ref named by the hash of its inputs and
 * not made again.
 */

import { createHash } from 'node:crypto';
import { mkdtemp, rename } from 'node:fs/promises';
import path from 'node:path';
import type { InstanceRepo } from '../core/bench-instance.schema.ts';
import { workspaceName } from '../core/case.schema.ts';
import { errorText } from '../core/error-text.ts';
import { InfraError } from '../core/errors.ts';
import { withDirLock } from '../engine/dir-lock.ts';
import { exists, removeTree } from '../engine/fs-util.ts';
import { git, gitOut, TANDEM_COMMIT_ENV } from '../engine/git/git.ts';
import type { MirrorCache } from '../engine/git/git-mirror.ts';
import { applyPatch } from '../engine/git/patch-apply.ts';

export type CandidateState =
  | { ok: true; sha: string; method?: string }
  /** The candidate patch does not apply: unresolved, `patch_successfully_applied: false`. */
  | { ok: false; message: string; files: string[] };

function hash(...parts: string[]): string {
  return createHash('sha256').update(parts.join('\0')).digest('hex').slice(0, 24);
}

export class BenchStates {
  private readonly stores = new Map<string, Promise<string>>();
  private readonly made = new Map<string, Promise<unknown>>();

  constructor(
    private readonly cacheDir: string,
    private readonly mirrors: MirrorCache,
  ) {}

  /** The local git URL of the store the engine reads `repo`'s bench states from. */
  async storeFor(r: Pick<InstanceRepo, 'url' | 'repo'>): Promise<string> {
    let pending = this.stores.get(r.url);
    if (!pending) {
      pending = this.createStore(r);
      this.stores.set(r.url, pending);
      pending.catch(() => this.stores.delete(r.url));
    }
    return pending;
  }

  /** Base + test patch; throws InfraError('patch-failed') when the test patch does not apply. */
  testBase(r: InstanceRepo): Promise<string> {
    return this.once(`t-${hash(r.url, r.base_commit, r.test_patch ?? '')}`, async (ref) => {
      const { store, base } = await this.baseIn(r);
      if (!r.test_patch?.trim()) return base;
      return this.commitIn(store, base, ref, r.repo, async (dir) => {
        try {
          await applyPatch(dir, r.test_patch!, { target: r.repo });
        } catch {
          // The test patch's text is the evaluator's: the message says that it failed, not how.
          throw new InfraError(
            'patch-failed',
            `the test patch of ${r.repo} does not apply at ${base.slice(0, 12)}`,
            {
              target: r.repo,
            },
          );
        }
      });
    });
  }

  /** Base + candidate patch, then the test-patch overlay. An empty patch leaves the test base. */
  candidate(r: InstanceRepo, patch: string): Promise<CandidateState> {
    const key = `h-${hash(r.url, r.base_commit, r.test_patch ?? '', patch)}`;
    return this.once(key, async (ref): Promise<CandidateState> => {
      const testBase = await this.testBase(r);
      if (!patch.trim()) return { ok: true, sha: testBase };
      const { store, base } = await this.baseIn(r);
      let method: string | undefined;
      try {
        const sha = await this.commitIn(store, base, ref, r.repo, async (dir) => {
          try {
            method = (await applyPatch(dir, patch, { target: r.repo })).method;
          } catch (err) {
            throw new CandidateFailed(err);
          }
          await overlayTestFiles(dir, base, testBase);
        });
        return { ok: true, sha, ...(method ? { method } : {}) };
      } catch (err) {
        if (!(err instanceof CandidateFailed)) throw err;
        const files = err.cause instanceof InfraError ? (err.cause.details.files ?? []) : [];
        return { ok: false, message: err.message, files };
      }
    });
  }

  private once<T>(key: string, make: (ref: string) => Promise<T>): Promise<T> {
    let pending = this.made.get(key) as Promise<T> | undefined;
    if (!pending) {
      pending = make(`refs/tandem/${key}`);
      this.made.set(key, pending);
      pending.catch(() => this.made.delete(key));
    }
    return pending;
  }

  private async createStore(r: Pick<InstanceRepo, 'url' | 'repo'>): Promise<string> {
    const store = path.join(
      path.resolve(this.cacheDir),
      'bench-states',
      `${hash(r.url).slice(0, 16)}-${workspaceName(r.repo)}.git`,
    );
    if (await exists(path.join(store, 'HEAD'))) return store;
    await withDirLock(store, async () => {
      if (await exists(path.join(store, 'HEAD'))) return;
      const tmp = `${store}.tmp-${process.pid}`;
      await removeTree(tmp);
      await git(['init', '--quiet', '--bare', tmp]);
      await rename(tmp, store);
    });
    return store;
  }

  /** The store, with the base commit fetched into it from the engine's mirror. */
  private async baseIn(r: InstanceRepo): Promise<{ store: string; base: string }> {
    const store = await this.storeFor(r);
    const base = await this.mirrors.resolve(r.url, r.base_commit);
    const ref = `refs/tandem/base-${base}`;
    await this.once(`fetch-${hash(store, base)}`, async () => {
      if (await hasRef(store, ref)) return;
      const mirror = await this.mirrors.ensure(r.url);
      await withDirLock(store, () => git(['fetch', '--quiet', mirror, `+${base}:${ref}`], { cwd: store }));
    });
    return { store, base };
  }

  /** Commits what `change` does to a clean checkout of `base`, stored under `ref`; reused if there. */
  private async commitIn(
    store: string,
    base: string,
    ref: string,
    target: string,
    change: (dir: string) => Promise<void>,
  ): Promise<string> {
    const existing = await refSha(store, ref);
    if (existing) return existing;
    const work = await mkdtemp(path.join(path.dirname(store), 'work-'));
    try {
      await git(['clone', '--quiet', '--shared', '--no-checkout', store, work]);
      await git(['checkout', '--quiet', '--detach', base], { cwd: work });
      await change(work);
      // --force: the tree is clean apart from the change, so ignored paths it creates belong too.
      await git(['add', '--all', '--force'], { cwd: work });
      await git(['commit', '--quiet', '--no-verify', '--allow-empty', '-m', `Bench state of ${target}`], {
        cwd: work,
        env: TANDEM_COMMIT_ENV,
      });
      const sha = (await gitOut(['rev-parse', 'HEAD'], { cwd: work })).trim();
      await withDirLock(store, () => git(['push', '--quiet', store, `+HEAD:${ref}`], { cwd: work }));
      return sha;
    } finally {
      await removeTree(work);
    }
  }
}

/** Every file the test patch touched is set to its test-base content (or removed, if it deleted it). */
async function overlayTestFiles(dir: string, base: string, testBase: string): Promise<void> {
  if (testBase === base) return;
  const out = await gitOut(['diff', '--name-status', '--no-renames', '-z', base, testBase], { cwd: dir });
  const parts = out.split('\0').filter(Boolean);
  const keep: string[] = [];
  const drop: string[] = [];
  for (let i = 0; i + 1 < parts.length; i += 2) (parts[i] === 'D' ? drop : keep).push(parts[i + 1]!);
  if (drop.length) await git(['rm', '--quiet', '-r', '-f', '--ignore-unmatch', '--', ...drop], { cwd: dir });
  // Checkout from the test-base commit: content and mode exactly as clean base + test patch.
  if (keep.length) await git(['checkout', testBase, '--', ...keep], { cwd: dir });
}

class CandidateFailed extends Error {
  constructor(override readonly cause: unknown) {
    super(errorText(cause));
  }
}

async function refSha(repo: string, ref: string): Promise<string | undefined> {
  const res = await git(['rev-parse', '--verify', '--quiet', `${ref}^{commit}`], {
    cwd: repo,
    allowFailure: true,
  });
  return res.code === 0 ? res.stdout.trim() : undefined;
}

async function hasRef(repo: string, ref: string): Promise<boolean> {
  return (await refSha(repo, ref)) !== undefined;
}
