/**
 * `tandem init --checkouts DIR`: each repository's local checkout (`DIR/<name>`), what its root
 * shows about its toolchain (core/ecosystem.ts), and the branches a case file to try the suite
 * locally starts from. A repository without a checkout or without a known toolchain is said
 * with what was (not) seen.
 */
import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { workspaceName } from '../../core/case.schema.ts';
import { type Detection, detectEcosystem } from '../../core/ecosystem.ts';
import { git } from '../../engine/git/git.ts';

export interface RepoDetection {
  repo: string;
  name: string;
  /** The checkout's absolute path, when there is one. */
  checkout?: string;
  detection: Detection;
  /** The branch a change starts from (origin's default, else the current one) and the current one. */
  base: string;
  head: string;
}

async function branchOf(dir: string, args: string[]): Promise<string | undefined> {
  try {
    const r = await git(args, { cwd: dir, allowFailure: true });
    const out = r.stdout.trim();
    return r.code === 0 && out && out !== 'HEAD' ? out : undefined;
  } catch {
    return undefined;
  }
}

export async function detectRepo(repo: string, checkouts: string): Promise<RepoDetection> {
  const name = workspaceName(repo);
  const dir = path.resolve(checkouts, name);
  if (!existsSync(dir)) return { repo, name, detection: { ok: false, saw: [] }, base: 'main', head: 'main' };
  const entries = (await readdir(dir, { withFileTypes: true }))
    .filter((e) => e.name !== '.git')
    .map((e) => (e.isDirectory() ? `${e.name}/` : e.name));
  const detection = detectEcosystem({ entries: entries.map((e) => e.replace(/\/$/, '')) });
  const shown: Detection = detection.ok ? detection : { ok: false, saw: entries.sort() };
  const head = (await branchOf(dir, ['rev-parse', '--abbrev-ref', 'HEAD'])) ?? 'main';
  const originHead = await branchOf(dir, ['symbolic-ref', '--short', 'refs/remotes/origin/HEAD']);
  return {
    repo,
    name,
    checkout: dir,
    detection: shown,
    base: originHead?.replace(/^origin\//, '') ?? head,
    head,
  };
}

/** One line per repository for the user: what was detected, or what was seen instead. */
export function detectionLine(d: RepoDetection, checkouts: string): string {
  if (d.detection.ok) return `  ${d.repo}: ${d.detection.ecosystem.kind} (${d.detection.ecosystem.evidence})`;
  if (!d.checkout)
    return `  ${d.repo}: not detected: no checkout at ${path.resolve(checkouts, d.name)} (--checkouts); wrote a Node test and no prepare step`;
  const saw = d.detection.saw.length ? d.detection.saw.slice(0, 12).join(', ') : 'an empty folder';
  return `  ${d.repo}: not detected: no package.json, go.mod, pyproject.toml or requirements.txt at the root of ${d.checkout} (saw: ${saw}); wrote a Node test and no prepare step`;
}
