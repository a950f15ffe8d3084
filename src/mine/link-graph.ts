/**
 * Linked sets from cues: the connected components of the graph whose nodes are changes (a merged
 * PR, a commit) and the issues and PRs they name. Links count both ways, as in the App's linked
 * sets (`core/linked-set.ts`). That module grows one open set from a seed PR and refuses links past
 * its caps; mining needs every component of a merged history at once, joins changes through the
 * issues they share (not PRs themselves), and screens a set over the cap out whole rather than
 * cutting it short (a truncated set would be an incomplete task). Pure.
 */
import { DEFAULT_MIN_SCORE, EVIDENCE_WEIGHTS, type LinkEvidence } from '../core/link-score.ts';
import { RepoSet, sameRepo } from '../core/repo-name.ts';
import type { CouplingLink } from './coupling.ts';
import type { Cue } from './cues.ts';

export interface LinkUnit {
  /** Unique id of the change (a PR key, `owner/name@sha`). */
  id: string;
  /** `owner/name` of its repository. */
  repo: string;
  /** Keys this change is known by (its own PR key): references to them reach it. */
  ownKeys: readonly string[];
  cues: readonly Cue[];
  /** Head branch name, for the same-branch cue (omitted in git histories without one). */
  branch?: string;
  /** When it landed (ms since the epoch). */
  at: number;
}

export interface LinkedComponent {
  /** Unit ids, in the order the units were given. */
  units: string[];
  /** Repositories (as the units spell them), in order of first appearance. */
  repos: string[];
  /** Branch names that joined units of different repositories. */
  sharedBranches: string[];
  /** Every link that joined the set's units, with its evidence and score. */
  links: CouplingLink[];
}

export interface LinkOptions {
  windowMs: number;
  /** Links scoring below this do not join (text cues and shared branches weigh too); default 0.5. */
  minScore?: number;
  /** Links no text states (dependency bumps, shared symbols): `coupling.ts`. */
  coupling?: readonly CouplingLink[];
}

/** Branch names every repository has: sharing one says nothing about a shared change. */
const GENERIC_BRANCHES =
  /^(main|master|develop|development|dev|trunk|release|staging|production|gh-pages|patch-\d+|HEAD)$/i;

class UnionFind {
  private readonly parent = new Map<string, string>();
  find(x: string): string {
    let root = x;
    while (this.parent.has(root) && this.parent.get(root) !== root) root = this.parent.get(root)!;
    // Path compression keeps long chains (busy issues) near-linear.
    let cur = x;
    while (cur !== root) {
      const next = this.parent.get(cur) ?? root;
      this.parent.set(cur, root);
      cur = next;
    }
    if (!this.parent.has(root)) this.parent.set(root, root);
    return root;
  }
  union(a: string, b: string): void {
    const ra = this.find(a);
    const rb = this.find(b);
    if (ra !== rb) this.parent.set(rb, ra);
  }
}

export function linkComponents(units: readonly LinkUnit[], opts: LinkOptions): LinkedComponent[] {
  const minScore = opts.minScore ?? DEFAULT_MIN_SCORE;
  const uf = new UnionFind();
  const unitNode = (id: string) => `unit ${id}`;
  const textLinks: CouplingLink[] = [];
  for (const u of units) {
    uf.find(unitNode(u.id));
    for (const k of u.ownKeys) uf.union(unitNode(u.id), `item ${k}`);
    for (const c of u.cues) {
      if (EVIDENCE_WEIGHTS[c.kind] < minScore) continue;
      uf.union(unitNode(u.id), `item ${c.target}`);
      const evidence: LinkEvidence = { kind: c.kind, target: c.target, text: c.text };
      textLinks.push({ from: u.id, to: [c.target], evidence: [evidence], score: EVIDENCE_WEIGHTS[c.kind] });
    }
  }
  const shared = EVIDENCE_WEIGHTS['same-branch'] >= minScore ? sameBranchPairs(units, opts.windowMs) : [];
  for (const { a, b, branch } of shared) {
    uf.union(unitNode(a), unitNode(b));
    textLinks.push({
      from: b,
      to: [a],
      evidence: [{ kind: 'same-branch', branch }],
      score: EVIDENCE_WEIGHTS['same-branch'],
    });
  }
  const coupled = (opts.coupling ?? []).filter((l) => l.score >= minScore);
  for (const l of coupled) for (const t of l.to) uf.union(unitNode(l.from), unitNode(t));

  const byRoot = new Map<string, LinkedComponent>();
  for (const u of units) {
    const root = uf.find(unitNode(u.id));
    const comp = byRoot.get(root) ?? { units: [], repos: [], sharedBranches: [], links: [] };
    byRoot.set(root, comp);
    comp.units.push(u.id);
    if (!comp.repos.some((r) => sameRepo(r, u.repo))) comp.repos.push(u.repo);
  }
  for (const { a, branch } of shared) {
    const comp = byRoot.get(uf.find(unitNode(a)));
    if (comp && !comp.sharedBranches.includes(branch)) comp.sharedBranches.push(branch);
  }
  for (const l of [...textLinks, ...coupled]) byRoot.get(uf.find(unitNode(l.from)))?.links.push(l);
  return [...byRoot.values()];
}

/**
 * Units of different repositories on a head branch of the same name that landed within the
 * window of each other (chained: a, b 10 days apart and b, c 10 days apart with a 14-day window
 * join all three).
 */
export function sameBranchPairs(
  units: readonly LinkUnit[],
  windowMs: number,
): Array<{ a: string; b: string; branch: string }> {
  const byBranch = new Map<string, LinkUnit[]>();
  for (const u of units) {
    if (!u.branch || GENERIC_BRANCHES.test(u.branch)) continue;
    const list = byBranch.get(u.branch) ?? [];
    byBranch.set(u.branch, list);
    list.push(u);
  }
  const out: Array<{ a: string; b: string; branch: string }> = [];
  for (const [branch, list] of byBranch) {
    if (new RepoSet(list.map((u) => u.repo)).size < 2) continue;
    const sorted = [...list].sort((x, y) => x.at - y.at);
    for (let i = 1; i < sorted.length; i++) {
      const prev = sorted[i - 1]!;
      const cur = sorted[i]!;
      if (cur.at - prev.at <= windowMs) out.push({ a: prev.id, b: cur.id, branch });
    }
  }
  return out;
}

/** `14d`, `36h`, `90m` → milliseconds; undefined when the text is not such a duration. */
export function parseWindow(text: string): number | undefined {
  const m = /^(\d+)\s*([dhm])$/i.exec(text.trim());
  if (!m) return undefined;
  const unit = { d: 86_400_000, h: 3_600_000, m: 60_000 }[m[2]!.toLowerCase() as 'd' | 'h' | 'm'];
  return Number(m[1]) * unit;
}
