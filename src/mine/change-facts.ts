/**
 * What one change (a commit, a merged PR) says about coupling without any text: the dependencies
 * its manifests moved and the version it set for itself, the symbols its code added, removed or
 * changed, and the identifiers its lines use. Read from its diff alone, so git and GitHub sources
 * give the same facts. Pure.
 */
import {
  type DependencyMove,
  manifestChange,
  manifestEcosystem,
  type PackageEcosystem,
} from '../core/dependency-manifests.ts';
import { DEFAULT_TEST_GLOBS, matchesTestGlobs } from '../core/test-file-rules.ts';
import { declarationLanguage, declarationsIn } from './declarations.ts';
import type { FileDiff } from './diff-lines.ts';

export interface VersionField {
  ecosystem: PackageEcosystem;
  file: string;
  version: string;
}

export interface ChangeFacts {
  moves: DependencyMove[];
  versions: VersionField[];
  /** Bare names (a method as its own name) declared by non-test code. */
  symbols: { added: string[]; removed: string[]; changed: string[] };
  /** Identifiers on added and on removed lines of code and tests, minus what the change declares. */
  uses: { added: Set<string>; removed: Set<string> };
}

const bare = (name: string) => name.slice(name.lastIndexOf('.') + 1);
const IDENT = /[A-Za-z_$][\w$]*/g;
/** Lines read per file for identifiers: a generated or vendored file says nothing more past this. */
const MAX_LINES = 5000;

function identifiers(lines: readonly string[]): Set<string> {
  const out = new Set<string>();
  for (const line of lines.slice(0, MAX_LINES)) for (const m of line.matchAll(IDENT)) out.add(m[0]);
  return out;
}

export function changeFacts(files: readonly FileDiff[]): ChangeFacts {
  const facts: ChangeFacts = {
    moves: [],
    versions: [],
    symbols: { added: [], removed: [], changed: [] },
    uses: { added: new Set(), removed: new Set() },
  };
  const declared = new Set<string>();
  for (const f of files) {
    const eco = manifestEcosystem(f.path);
    if (eco) {
      const { moves, version } = manifestChange(f.path, f.removed, f.added);
      facts.moves.push(...moves);
      if (version) facts.versions.push({ ecosystem: eco, file: f.path, version });
      continue;
    }
    if (!declarationLanguage(f.path)) continue;
    for (const id of identifiers(f.added)) facts.uses.added.add(id);
    for (const id of identifiers(f.removed)) facts.uses.removed.add(id);
    const after = new Set(declarationsIn(f.path, f.added).map((d) => bare(d.name)));
    const before = new Set(declarationsIn(f.path, f.removed).map((d) => bare(d.name)));
    for (const n of [...after, ...before]) declared.add(n);
    if (matchesTestGlobs(f.path, DEFAULT_TEST_GLOBS)) continue;
    for (const n of after) (before.has(n) ? facts.symbols.changed : facts.symbols.added).push(n);
    for (const n of before) if (!after.has(n)) facts.symbols.removed.push(n);
  }
  // A change does not use what it declares: that is its own API, not someone else's.
  for (const n of declared) {
    facts.uses.added.delete(n);
    facts.uses.removed.delete(n);
  }
  return facts;
}
