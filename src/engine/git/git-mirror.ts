/**
 * Persistent bare mirrors, one per repository URL, shared by every evaluation that uses the same
 * cache folder. Network is touched only when needed: a pinned SHA already in the mirror costs
 * nothing, a branch or tag name costs one `fetch --prune` per MirrorCache instance and URL.
 */

import { createHash, randomBytes } from 'node:crypto';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { scrubCredentials, urlWithoutCredentials } from '../../core/credentials.ts';
import { errorText } from '../../core/error-text.ts';
import { InfraError } from '../../core/errors.ts';
import { withDirLock } from '../dir-lock.ts';
import { GitError, git, gitOut, isFullSha, summarizeStderr } from './git.ts';

export interface MirrorCacheOptions {
  /** How long to wait for another process holding a mirror's lock. */
  lockTimeoutMs?: number;
  /** A lock not refreshed for this long is considered abandoned. */
  staleLockMs?: number;
}

export class MirrorCache {
  /** What this instance did over the network; tests and progress logs read it. */
  readonly stats = { clones: 0, fetches: 0, shaFetches: 0 };
  private readonly ensuring = new Map<string, Promise<string>>();
  private readonly refreshed = new Map<string, Promise<void>>();

  constructor(
    readonly cacheDir: string,
    private readonly options: MirrorCacheOptions = {},
  ) {}

  /** Where the mirror of `url` lives (whether or not it exists yet). */
  mirrorPath(url: string): string {
    const key = mirrorKey(url);
    const hash = createHash('sha256').update(key).digest('hex').slice(0, 16);
    const last = (key.replace(/\/+$/, '').split(/[/:]/).pop() ?? 'repo').replace(/\.git$/, '');
    const name = last.replace(/[^A-Za-z0-9._-]/g, '_') || 'repo';
    return path.join(path.resolve(this.cacheDir), 'mirrors', `${hash}-${name}.git`);
  }

  /** The bare mirror of `url`, cloned on first use. Concurrent callers share one clone. */
  ensure(url: string): Promise<string> {
    const fetchUrl = localize(url);
    const key = mirrorKey(fetchUrl);
    let pending = this.ensuring.get(key);
    if (!pending) {
      pending = this.cloneIfMissing(fetchUrl, key);
      this.ensuring.set(key, pending);
      pending.catch(() => this.ensuring.delete(key));
    }
    return pending;
  }

  /** The full commit SHA `ref` (branch, tag, full ref, full or abbreviated SHA) names in `url`. */
  async resolve(url: string, ref: string): Promise<string> {
    const fetchUrl = localize(url);
    const mirror = await this.ensure(fetchUrl);
    const unknown = () =>
      new InfraError(
        'unknown-ref',
        `unknown ref '${ref}' in ${scrubCredentials(fetchUrl)}: no such branch, tag or commit`,
      );
    // A leading dash would be read as an option; whitespace is never part of a ref.
    if (!ref || ref.startsWith('-') || /\s/.test(ref)) throw unknown();

    if (isFullSha(ref)) {
      const sha = ref.toLowerCase();
      if (await hasCommit(mirror, sha)) return sha;
      await this.fetchSha(fetchUrl, mirror, sha);
      if (await hasCommit(mirror, sha)) return sha;
      // Servers that refuse SHA wants may still have it under a ref we have not fetched yet.
      await this.refresh(fetchUrl, mirror);
      if (await hasCommit(mirror, sha)) return sha;
      throw unknown();
    }
    await this.refresh(fetchUrl, mirror);
    const res = await git(['rev-parse', '--verify', '--quiet', `${ref}^{commit}`], {
      cwd: mirror,
      allowFailure: true,
    });
    if (res.code === 0 && isFullSha(res.stdout.trim())) return res.stdout.trim();
    throw unknown();
  }

  private async cloneIfMissing(url: string, key: string): Promise<string> {
    const dir = this.mirrorPath(url);
    if (await isMirror(dir)) return dir;
    await mkdir(path.dirname(dir), { recursive: true });
    await withLock(dir, this.options, async () => {
      if (await isMirror(dir)) return;
      await rm(dir, { recursive: true, force: true }); // leftovers of something that was not a mirror
      // Clone beside, then rename: a mirror folder that exists is always complete.
      const tmp = `${dir}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`;
      try {
        await git(['clone', '--mirror', '--quiet', '--', url, tmp]);
        await rename(tmp, dir);
      } catch (e) {
        await rm(tmp, { recursive: true, force: true });
        throw fetchError(url, 'clone', e);
      }
      this.stats.clones++;
      // A fresh clone is as current as a fetch.
      this.refreshed.set(key, Promise.resolve());
    });
    return dir;
  }

  /** `fetch --prune origin` at most once per instance and URL; concurrent callers share it. */
  private refresh(url: string, mirror: string): Promise<void> {
    const key = mirrorKey(url);
    let pending = this.refreshed.get(key);
    if (!pending) {
      pending = withLock(mirror, this.options, async () => {
        this.stats.fetches++;
        await setOrigin(mirror, url);
        await git(['fetch', '--prune', '--quiet', 'origin'], { cwd: mirror });
      }).catch((e: unknown) => {
        this.refreshed.delete(key);
        throw fetchError(url, 'fetch', e);
      });
      this.refreshed.set(key, pending);
    }
    return pending;
  }

  /** Fetches one commit by SHA; a refusal is not an error here (the caller falls back). */
  private async fetchSha(url: string, mirror: string, sha: string): Promise<void> {
    await withLock(mirror, this.options, async () => {
      if (await hasCommit(mirror, sha)) return;
      this.stats.shaFetches++;
      await setOrigin(mirror, url);
      await git(['fetch', '--quiet', 'origin', sha], { cwd: mirror, allowFailure: true });
    });
  }
}

/** Local paths become absolute (git stores them so); remote URLs are kept as given. */
function localize(url: string): string {
  const u = url.trim();
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(u)) return u;
  if (/^[^/]+:/.test(u)) return u; // scp-like `git@host:owner/repo`
  return path.resolve(u);
}

/** What names a mirror: the URL without credentials (tokens rotate; the repository does not). */
function mirrorKey(url: string): string {
  return urlWithoutCredentials(url).replace(/\/+$/, '');
}

async function setOrigin(mirror: string, url: string): Promise<void> {
  // Keep the URL current: an installation token in it may have rotated since the clone.
  const current = await git(['config', '--get', 'remote.origin.url'], { cwd: mirror, allowFailure: true });
  if (current.stdout.trim() !== url) await git(['config', 'remote.origin.url', url], { cwd: mirror });
}

async function isMirror(dir: string): Promise<boolean> {
  return stat(path.join(dir, 'HEAD')).then(
    () => true,
    () => false,
  );
}

export async function hasCommit(repo: string, sha: string): Promise<boolean> {
  const res = await git(['cat-file', '-e', `${sha}^{commit}`], { cwd: repo, allowFailure: true });
  return res.code === 0;
}

function fetchError(url: string, op: 'clone' | 'fetch', e: unknown): InfraError {
  if (e instanceof InfraError) return e;
  const why = e instanceof GitError ? summarizeStderr(e.stderr) : errorText(e);
  return new InfraError('fetch', `could not ${op} ${scrubCredentials(url)}: ${why || 'git failed'}`);
}

/** The mirror's original URL without credentials (what checkouts record as their origin). */
export async function mirrorOriginUrl(mirror: string): Promise<string | undefined> {
  const url = await gitOut(['config', '--get', 'remote.origin.url'], { cwd: mirror }).catch(() => '');
  return url ? mirrorKey(url) : undefined;
}

/** The mirror's cross-process lock; waiting past the timeout is a fetch failure. */
function withLock<T>(target: string, opts: MirrorCacheOptions, fn: () => Promise<T>): Promise<T> {
  return withDirLock(target, fn, {
    ...(opts.staleLockMs !== undefined ? { staleMs: opts.staleLockMs } : {}),
    ...(opts.lockTimeoutMs !== undefined ? { timeoutMs: opts.lockTimeoutMs } : {}),
    timeoutError: (lock) => new InfraError('fetch', `timed out waiting for the mirror lock ${lock}`),
  });
}
