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
import type { Cue } from './cues.ts';
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

/** The exported declarations the side's gold patch (non-test scripts) adds or changes. */
export async function interfaceOf(change: RepoChange): Promise<InterfaceEntry[]> {
  const out: InterfaceEntry[] = [];
  for (const f of change.files) {
    if (f.kind !== 'code' || !isScript(f.path)) continue;
    const head = await fileAt(change.gitDir, change.head, f.path);
    if (head === undefined) continue; // deleted
    out.push(...(await interfaceChanges(f.path, await fileAt(change.gitDir, change.base, f.path), head)));
  }
  return out;
}

function statsOf(change: RepoChange) {
  const languages = [...new Set(change.files.map((f) => languageOf(f.path)).filter((l): l is string => !!l))];
  return {
    head: change.head,
    head_is_replay: change.headIsReplay,
    commits: change.commits,
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
      repositories: Object.fromEntries(changes.map((c) => [c.repo, statsOf(c)])),
      cues: set.cues.map((c) => ({ from: c.from, kind: c.kind, target: c.target, text: c.text })),
      ...(set.sharedBranches.length ? { shared_branches: set.sharedBranches } : {}),
    },
  };
  const parsed = benchInstanceSchema.safeParse(instance);
  if (!parsed.success) throw inputErrorOf(parsed.error, `candidate ${instanceId}`);
  return instance;
}
