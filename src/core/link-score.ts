/**
 * How sure mining is that two changes belong together: each piece of evidence weighs in, and a
 * link's score is the chance that at least one of them is right (1 − Π(1 − wᵢ)), so independent
 * cues add up without passing 1. Sets are joined only by links scoring at least `--min-score`.
 * Pure.
 */

/** Words in the changes' text that name an issue or PR (see mine/cues.ts). */
export type TextCueKind = 'depends-on' | 'closes' | 'trailer' | 'reference';

export type LinkEvidence =
  | { kind: TextCueKind; target: string; text: string }
  | { kind: 'same-branch'; branch: string }
  | {
      kind: 'dependency-bump';
      /** The package as the consumer's manifest names it. */
      package: string;
      file: string;
      from?: string;
      to: string;
      /** How the producer made that version: a tag, a GitHub release, its own version field, or the commit itself. */
      release: { how: 'tag' | 'release' | 'version-field' | 'commit'; name: string };
    }
  | {
      kind: 'symbols';
      /** Names the producer's change added, renamed or removed and the consumer's change uses. */
      symbols: string[];
      /** Whether the consumer's manifests depend on the producer's package. */
      dependsOnProducer: boolean;
    };

export type LinkEvidenceKind = LinkEvidence['kind'];

export const DEFAULT_MIN_SCORE = 0.5;

/** Weights per kind; symbols weigh by how many, and more when the consumer depends on the producer. */
export const EVIDENCE_WEIGHTS: Record<Exclude<LinkEvidenceKind, 'symbols'>, number> = {
  'depends-on': 1,
  closes: 0.95,
  trailer: 0.9,
  reference: 0.8,
  'dependency-bump': 0.8,
  'same-branch': 0.6,
};

/** One shared symbol is weak (names recur); three, or one plus a declared dependency, link. */
export function symbolsWeight(count: number, dependsOnProducer: boolean): number {
  if (count <= 0) return 0;
  return Math.min(0.6, 0.15 + 0.15 * count) + (dependsOnProducer ? 0.25 : 0);
}

export function evidenceWeight(e: LinkEvidence): number {
  return e.kind === 'symbols'
    ? symbolsWeight(e.symbols.length, e.dependsOnProducer)
    : EVIDENCE_WEIGHTS[e.kind];
}

/** The score of a link from all its evidence, two decimals. */
export function linkScore(evidence: readonly LinkEvidence[]): number {
  const miss = evidence.reduce((p, e) => p * (1 - Math.min(1, evidenceWeight(e))), 1);
  return Math.round((1 - miss) * 100) / 100;
}
