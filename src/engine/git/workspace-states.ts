/**
 * Resolves every repository of a case to SHAs once, then materializes each state (target base,
 * target head, context) once, kept across evaluations under `<cache>/states/` keyed by what
 * defines it. Failures are kept per target: a head that does not merge or a patch that does not
 * apply makes only the configurations that apply it infrastructure errors.
 */
import { createHash } from 'node:crypto';
import { readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { type CaseFile, isPatchTarget, type Target, workspaceName } from '../../core/case.schema.ts';
import { urlWithoutCredentials } from '../../core/credentials.ts';
import { infraInfo } from '../../core/errors.ts';
import type { ReportTarget } from '../../core/report.schema.ts';
import type { InfraErrorInfo } from '../../core/run.schema.ts';
import { withDirLock } from '../dir-lock.ts';
import { exists, removeTree } from '../fs-util.ts';
import type { MirrorCache } from './git-mirror.ts';
import {
  describeState,
  headFromMerge,
  headFromPatch,
  materializeCheckout,
  type RepoState,
} from './repo-state.ts';

export interface MaterializedRepo {
  repo: string;
  name: string;
  /** For targets: base and head (head absent when it failed, with `error`). Context: base only. */
  base?: RepoState;
  head?: RepoState;
  error?: InfraErrorInfo;
  report: ReportTarget;
}

function hash(...parts: string[]): string {
  return createHash('sha256').update(parts.join('\0')).digest('hex').slice(0, 20);
}

/** A state folder that is complete once renamed into place; concurrent makers share a lock. */
async function persistent(
  root: string,
  key: string,
  make: (dir: string) => Promise<RepoState>,
): Promise<RepoState> {
  const dir = path.join(root, key);
  if (await exists(path.join(dir, '.git'))) return describeState(dir);
  return withDirLock(dir, async () => {
    if (await exists(path.join(dir, '.git'))) return describeState(dir);
    const tmp = `${dir}.tmp-${process.pid}`;
    try {
      await make(tmp);
      await rename(tmp, dir);
    } finally {
      await removeTree(tmp);
    }
    return describeState(dir);
  });
}

export async function materializeRepos(
  c: Omit<CaseFile, 'suite'>,
  caseDir: string,
  mirrors: MirrorCache,
  cacheDir: string,
  onReady: (repo: string, state: 'base' | 'head' | 'context', sha: string) => void,
): Promise<{ targets: MaterializedRepo[]; context: MaterializedRepo[] }> {
  const root = path.join(cacheDir, 'states');
  const targets = await Promise.all(
    c.targets.map((t) => materializeTarget(t, caseDir, mirrors, root, onReady)),
  );
  const context = await Promise.all(
    c.context.map(async (r): Promise<MaterializedRepo> => {
      const name = workspaceName(r.repo);
      // Reports leave the evaluator: the clone URL is kept without the token it may carry.
      const report: ReportTarget = {
        repo: r.repo,
        url: urlWithoutCredentials(r.url),
        base: { ref: r.ref, sha: '' },
      };
      try {
        const mirror = await mirrors.ensure(r.url);
        const sha = await mirrors.resolve(r.url, r.ref);
        const base = await persistent(root, `${hash(r.url)}-${name}/c-${sha}`, (d) =>
          materializeCheckout(mirror, sha, d, { target: r.repo, originUrl: r.url }),
        );
        onReady(r.repo, 'context', sha);
        return {
          repo: r.repo,
          name,
          base,
          report: { ...report, base: { ref: r.ref, sha, tree: base.treeSha } },
        };
      } catch (err) {
        const error = infraInfo(err, r.repo);
        return { repo: r.repo, name, error, report: { ...report, error } };
      }
    }),
  );
  return { targets, context };
}

async function materializeTarget(
  t: Target,
  caseDir: string,
  mirrors: MirrorCache,
  root: string,
  onReady: (repo: string, state: 'base' | 'head' | 'context', sha: string) => void,
): Promise<MaterializedRepo> {
  const name = workspaceName(t.repo);
  const opts = { target: t.repo, originUrl: t.url };
  const prefix = `${hash(t.url)}-${name}`;
  const report: ReportTarget = {
    repo: t.repo,
    url: urlWithoutCredentials(t.url),
    base: { ref: t.base, sha: '' },
  };
  let mirror: string;
  let baseSha: string;
  let base: RepoState;
  try {
    mirror = await mirrors.ensure(t.url);
    baseSha = await mirrors.resolve(t.url, t.base);
    base = await persistent(root, `${prefix}/b-${baseSha}`, (d) =>
      materializeCheckout(mirror, baseSha, d, opts),
    );
    onReady(t.repo, 'base', baseSha);
  } catch (err) {
    const error = infraInfo(err, t.repo);
    return { repo: t.repo, name, error, report: { ...report, error } };
  }
  report.base = { ref: t.base, sha: baseSha, tree: base.treeSha };
  try {
    if (isPatchTarget(t)) {
      const file = path.resolve(caseDir, t.patch);
      const text = await readFile(file, 'utf8');
      const head = await persistent(root, `${prefix}/p-${baseSha}-${hash(text)}`, async (d) => {
        const s = await headFromPatch(mirror, baseSha, text, d, opts);
        // Kept beside the state (inside .git, outside the tree) so a reused state still reports it.
        await writeFile(path.join(d, '.git', 'tandem-patch-method'), s.method);
        return s;
      });
      const method = await readFile(path.join(head.dir, '.git', 'tandem-patch-method'), 'utf8').catch(
        () => 'unknown',
      );
      onReady(t.repo, 'head', head.commitSha);
      const headReport = { sha: head.commitSha, tree: head.treeSha, kind: 'patch' as const };
      return {
        repo: t.repo,
        name,
        base,
        head,
        report: { ...report, head: { ...headReport, patch: { file: t.patch, method } } },
      };
    }
    const headSha = await mirrors.resolve(t.url, t.head);
    const head = t.merge
      ? await persistent(root, `${prefix}/m-${baseSha}-${headSha}`, (d) =>
          headFromMerge(mirror, baseSha, headSha, d, opts),
        )
      : await persistent(root, `${prefix}/b-${headSha}`, (d) =>
          materializeCheckout(mirror, headSha, d, opts),
        );
    onReady(t.repo, 'head', head.commitSha);
    const kind = t.merge ? ('merge' as const) : ('branch' as const);
    return {
      repo: t.repo,
      name,
      base,
      head,
      report: { ...report, head: { ref: t.head, sha: head.commitSha, tree: head.treeSha, kind } },
    };
  } catch (err) {
    const error = infraInfo(err, t.repo);
    return { repo: t.repo, name, base, error, report: { ...report, error } };
  }
}
