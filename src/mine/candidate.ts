/**
 * From a screened linked set to a candidate benchmark instance (the bench format,
 * `src/core/bench-instance.schema.ts`): per repository base, gold patch and test patch; the
 * problem statement; the exported interface the gold patch adds or changes (TS/JS); statistics;
 * provenance; the suite filled in from the template. Mining's extras sit in `metadata`.
 */
import { createHash } from 'node:crypto';
import { type BenchInstanceInput, benchInstanceSchema } from '../core/bench-instance.schema.ts';
import type { Suite } from '../core/suite.schema.ts';
import { inputErrorOf } from '../core/zod-issues.ts';
import { git } from '../engine/git/git.ts';
import type { CouplingLink } from './coupling.ts';
import type { Cue } from './cues.ts';
import { declarationChanges, declarationLanguage } from './declarations.ts';
import { isScript, languageOf } from './file-kinds.ts';
import { type InterfaceEntry, interfaceChanges } from './interface-diff.ts';
import type { RepoChange } from './repo-change.ts';

export interface SetDescription {
  source: 'github' | 'git';
  /** The links that joined the set: which change said what. */
  cues: Array<Cue & { from: string }>;
  sharedBranches: string[];
  problemStatement: string;
  /** True when the statement comes from PR or commit text, which may reveal the solution. */
  needsRewrite: boolean;
  /** When the last change of the set landed. */
  createdAt: string;
  /** Every PR, issue and commit URL the set was built from. */
  provenance: string[];
  /** Every link that joined the set: text cues, shared branches, dependency bumps, shared symbols. */
  links: CouplingLink[];
  /** The issues and PRs the set's changes name (`owner/name#N`), its own PRs left out. */
  issues: string[];
  /** Per repository, the tags and releases on the side's commits. */
  tags: Record<string, string[]>;
}

/** A set is as strong as its weakest link. */
export function setScore(links: readonly CouplingLink[]): number | null {
  return links.length ? Math.min(...links.map((l) => l.score)) : null;
}

/** A readable, stable id: `acme__api+web-1a2b3c4d` (owner, repository names, hash of the heads). */
export function instanceIdOf(changes: readonly RepoChange[]): string {
  const owners = [...new Set(changes.map((c) => c.repo.split('/')[0]))];
  const names = changes.map((c) => (owners.length === 1 ? c.repo.split('/')[1] : c.repo.replace('/', '__')));
  const hash = createHash('sha256')
    .update(changes.map((c) => `${c.repo}@${c.base}..${c.head}`).join('\n'))
    .digest('hex')
    .slice(0, 8);
  const prefix = owners.length === 1 ? `${owners[0]}__` : '';
  return `${prefix}${names.join('+')}-${hash}`.replace(/[^A-Za-z0-9_.+@-]/g, '_');
}

async function fileAt(gitDir: string, rev: string, file: string): Promise<string | undefined> {
  const res = await git(['show', `${rev}:${file}`], { cwd: gitDir, allowFailure: true });
  return res.code === 0 ? res.stdout : undefined;
}

/**
 * The declarations the side's gold patch (non-test code) adds or changes: TS/JS exports through
 * the TypeScript compiler, Python and Go through `declarations.ts`.
 */
export async function interfaceOf(change: RepoChange): Promise<InterfaceEntry[]> {
  const out: InterfaceEntry[] = [];
  for (const f of change.files) {
    const lang = declarationLanguage(f.path);
    if (f.kind !== 'code' || !lang) continue;
    const head = await fileAt(change.gitDir, change.head, f.path);
    if (head === undefined) continue; // deleted
    const base = await fileAt(change.gitDir, change.base, f.path);
    if (lang === 'script' && isScript(f.path)) out.push(...(await interfaceChanges(f.path, base, head)));
    else if (lang !== 'script')
      out.push(...declarationChanges(f.path, base, head).map((d) => ({ file: f.path, ...d })));
  }
  return out;
}

function statsOf(change: RepoChange, tags: readonly string[]) {
  const languages = [...new Set(change.files.map((f) => languageOf(f.path)).filter((l): l is string => !!l))];
  return {
    head: change.head,
    head_is_replay: change.headIsReplay,
    commits: change.commits,
    tags,
    files: change.files.length,
    test_files: change.files.filter((f) => f.kind === 'test').length,
    lines: change.files.reduce((n, f) => n + f.added + f.removed, 0),
    languages,
  };
}

/** The candidate instance, validated against the bench schema (a failure is a bad template). */
export async function buildCandidate(
  changes: readonly RepoChange[],
  set: SetDescription,
  suiteFor: (instanceId: string, repos: string[]) => Suite | string,
): Promise<BenchInstanceInput> {
  const instanceId = instanceIdOf(changes);
  const interfaces: InterfaceEntry[] = [];
  for (const c of changes) {
    for (const entry of await interfaceOf(c)) interfaces.push({ ...entry, file: `${c.repo}:${entry.file}` });
  }
  const instance: BenchInstanceInput = {
    instance_id: instanceId,
    problem_statement: set.problemStatement,
    repos: changes.map((c) => ({
      repo: c.repo,
      url: c.url,
      base_commit: c.base,
      patch: c.patch,
      ...(c.testPatch ? { test_patch: c.testPatch } : {}),
    })),
    suite: suiteFor(
      instanceId,
      changes.map((c) => c.repo),
    ),
    created_at: set.createdAt,
    provenance: set.provenance,
    metadata: {
      mined_by: `tandem mine ${set.source}`,
      needs_rewrite: set.needsRewrite,
      interface: interfaces,
      repositories: Object.fromEntries(changes.map((c) => [c.repo, statsOf(c, set.tags[c.repo] ?? [])])),
      cues: set.cues.map((c) => ({ from: c.from, kind: c.kind, target: c.target, text: c.text })),
      score: setScore(set.links),
      links: set.links,
      issues: set.issues,
      ...(set.sharedBranches.length ? { shared_branches: set.sharedBranches } : {}),
    },
  };
  const parsed = benchInstanceSchema.safeParse(instance);
  if (!parsed.success) throw inputErrorOf(parsed.error, `candidate ${instanceId}`);
  return instance;
}
