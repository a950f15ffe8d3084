/**
 * Links between changes of different repositories that no text states: a consumer that moves its
 * dependency on a producer to a version the producer tagged, released or set in its own change,
 * and a consumer that uses symbols a producer's change added, renamed or removed — each within
 * the window. A bump joins the consumer to the producer's whole release: its changes since the
 * previous version mark. Every link carries its evidence and score (core/link-score.ts). Pure.
 */
import { normalPackageName, type PackageEcosystem } from '../core/dependency-manifests.ts';
import { type LinkEvidence, linkScore } from '../core/link-score.ts';
import { repoKey, sameRepo } from '../core/repo-name.ts';
import { lowerBound, pseudoVersionCommit, sameVersion } from '../core/version-ranges.ts';
import type { ChangeFacts } from './change-facts.ts';

export interface CouplingUnit {
  id: string;
  repo: string;
  /** The commit the change ends at (a pseudo-version may name it). */
  sha: string;
  at: number;
  facts: ChangeFacts;
}

/** A version a repository made: a tag, a GitHub release, or its own version field. */
export interface ReleaseMark {
  repo: string;
  /** The change the version came with. */
  unitId: string;
  at: number;
  version: string;
  how: 'tag' | 'release' | 'version-field';
  /** The tag or release name, or the manifest that set the version. */
  name: string;
}

/** Which repository publishes a package, and which repositories depend on it. */
export interface PackageIndex {
  owner(ecosystem: PackageEcosystem, name: string): string | undefined;
  dependsOn(repo: string, producerRepo: string): boolean;
}

export interface CouplingLink {
  from: string;
  to: string[];
  evidence: LinkEvidence[];
  score: number;
}

/** Names too common to say two changes share an API. */
const COMMON = new Set(
  'main init test tests setup teardown run start stop close open read write parse format render handle create update delete remove value values name names index error errors config options default string number result results data items list load save exports module require import self this args kwargs string_types none true false null undefined'.split(
    ' ',
  ),
);
/** On one change, a tag or release names the version better than the manifest that set it. */
const HOW_ORDER: Record<ReleaseMark['how'], number> = { tag: 0, release: 1, 'version-field': 2 };
const distinctive = (name: string) => name.length >= 4 && !COMMON.has(name.toLowerCase());

/** Producer changes of the release `mark`: those after the previous mark, within the window. */
function releaseUnits(
  ordered: readonly CouplingUnit[],
  marks: readonly ReleaseMark[],
  mark: ReleaseMark,
  windowMs: number,
): string[] {
  const end = ordered.findIndex((u) => u.id === mark.unitId);
  if (end < 0) return [];
  const marked = new Set(marks.filter((m) => m.unitId !== mark.unitId).map((m) => m.unitId));
  const out: string[] = [];
  for (let i = end; i >= 0; i--) {
    const u = ordered[i]!;
    if (i < end && marked.has(u.id)) break;
    if (mark.at - u.at > windowMs) break;
    out.unshift(u.id);
  }
  return out;
}

export function couplingLinks(
  units: readonly CouplingUnit[],
  marks: readonly ReleaseMark[],
  packages: PackageIndex,
  windowMs: number,
): CouplingLink[] {
  const byRepo = new Map<string, CouplingUnit[]>();
  // In landing order (stable: commits of one second keep their branch order).
  for (const u of [...units].sort((a, b) => a.at - b.at)) {
    const list = byRepo.get(repoKey(u.repo)) ?? [];
    byRepo.set(repoKey(u.repo), list);
    list.push(u);
  }
  const links = new Map<string, CouplingLink>();
  const add = (from: string, to: string[], e: LinkEvidence) => {
    const key = `${from} ${to.join(' ')}`;
    const link = links.get(key) ?? { from, to, evidence: [], score: 0 };
    links.set(key, link);
    link.evidence.push(e);
  };
  const bumped = new Map<string, Set<string>>(); // consumer unit → producer repos it bumps

  for (const c of units) {
    for (const move of c.facts.moves) {
      const producer = packages.owner(move.ecosystem, normalPackageName(move.ecosystem, move.name));
      if (!producer || sameRepo(producer, c.repo)) continue;
      const ordered = byRepo.get(repoKey(producer)) ?? [];
      const repoMarks = marks.filter((m) => sameRepo(m.repo, producer));
      const evidence = (release: {
        how: 'tag' | 'release' | 'version-field' | 'commit';
        name: string;
      }): LinkEvidence => ({
        kind: 'dependency-bump',
        package: move.name,
        file: move.file,
        ...(move.from !== undefined ? { from: move.from } : {}),
        to: move.to,
        release,
      });
      const pseudo = move.ecosystem === 'go' ? pseudoVersionCommit(move.to) : undefined;
      if (pseudo) {
        const u = ordered.find((p) => p.sha.startsWith(pseudo) && Math.abs(c.at - p.at) <= windowMs);
        if (u) {
          add(c.id, [u.id], evidence({ how: 'commit', name: u.sha.slice(0, 12) }));
          bumped.set(c.id, (bumped.get(c.id) ?? new Set()).add(repoKey(producer)));
        }
        continue;
      }
      const version = lowerBound(move.to);
      if (!version) continue;
      const mark = repoMarks
        .filter((m) => sameVersion(m.version, version) && Math.abs(c.at - m.at) <= windowMs)
        .sort((a, b) => b.at - a.at || HOW_ORDER[a.how] - HOW_ORDER[b.how])[0];
      if (!mark) continue;
      const to = releaseUnits(ordered, repoMarks, mark, windowMs);
      if (to.length === 0) continue;
      add(c.id, to, evidence({ how: mark.how, name: mark.name }));
      bumped.set(c.id, (bumped.get(c.id) ?? new Set()).add(repoKey(producer)));
    }
  }

  // Symbols: name → the producer changes that added, changed or removed it.
  const made = new Map<string, Array<{ unit: CouplingUnit; gone: boolean }>>();
  for (const p of units) {
    const note = (n: string, gone: boolean) => {
      if (!distinctive(n)) return;
      const list = made.get(n) ?? [];
      made.set(n, list);
      list.push({ unit: p, gone });
    };
    for (const n of [...p.facts.symbols.added, ...p.facts.symbols.changed]) note(n, false);
    for (const n of p.facts.symbols.removed) note(n, true);
  }
  for (const c of units) {
    const shared = new Map<string, { unit: CouplingUnit; names: Set<string> }>();
    const take = (names: Set<string>, gone: boolean) => {
      for (const n of names) {
        for (const m of made.get(n) ?? []) {
          if (m.gone !== gone || sameRepo(m.unit.repo, c.repo) || Math.abs(c.at - m.unit.at) > windowMs)
            continue;
          const s = shared.get(m.unit.id) ?? { unit: m.unit, names: new Set() };
          shared.set(m.unit.id, s);
          s.names.add(n);
        }
      }
    };
    take(c.facts.uses.added, false);
    // Adapting to a rename or a removal: the consumer stops using the old name.
    take(c.facts.uses.removed, true);
    for (const { unit, names } of shared.values()) {
      const depends = bumped.get(c.id)?.has(repoKey(unit.repo)) || packages.dependsOn(c.repo, unit.repo);
      const symbols = [...names].sort();
      // Joined to the bump's link when that link already reaches this producer change.
      const bump = [...links.values()].find((l) => l.from === c.id && l.to.includes(unit.id));
      if (bump) bump.evidence.push({ kind: 'symbols', symbols, dependsOnProducer: depends });
      else add(c.id, [unit.id], { kind: 'symbols', symbols, dependsOnProducer: depends });
    }
  }
  return [...links.values()].map((l) => ({ ...l, score: linkScore(l.evidence) }));
}
