/**
 * Screening of a linked set before it becomes a candidate: the reasons CrossSWE removed sets by
 * hand, as rules. Every screened set is written out with its reason, never dropped silently. Pure.
 */
import type { FileKind } from './file-kinds.ts';

export interface ChangedFile {
  path: string;
  kind: FileKind;
  added: number;
  removed: number;
}

export interface RepoChangeSummary {
  repo: string;
  files: readonly ChangedFile[];
}

export interface ScreeningLimits {
  maxFiles: number;
  maxLines: number;
}

export type ScreenReason =
  | { code: 'single-repository'; message: string }
  | { code: 'too-many-repositories'; message: string }
  | { code: 'not-substantive'; message: string; repos: string[] }
  | { code: 'too-large'; message: string }
  | { code: 'conflict'; message: string; repo: string }
  | { code: 'unreadable'; message: string; repo?: string };

const NON_SUBSTANTIVE: ReadonlySet<FileKind> = new Set(['docs', 'lockfile', 'version']);

/** Why a side carries no real change, or undefined when it does. */
export function insubstantial(side: RepoChangeSummary): string | undefined {
  const nonTest = side.files.filter((f) => f.kind !== 'test');
  if (nonTest.length === 0) {
    return side.files.length === 0 ? 'changes nothing' : 'changes tests only';
  }
  if (nonTest.some((f) => !NON_SUBSTANTIVE.has(f.kind))) return undefined;
  const kinds = [...new Set(nonTest.map((f) => f.kind))].map(
    (k) => ({ docs: 'docs or changelogs', lockfile: 'lockfiles', version: 'version numbers' })[k as string],
  );
  const shown = nonTest.slice(0, 3).map((f) => f.path);
  const more = nonTest.length > shown.length ? ` and ${nonTest.length - shown.length} more` : '';
  return `only touches ${kinds.join(', ')} (${shown.join(', ')}${more})`;
}

/** The first reason to screen the set out, or undefined when it is a candidate. */
export function screen(
  sides: readonly RepoChangeSummary[],
  limits: ScreeningLimits,
): ScreenReason | undefined {
  const weak = sides
    .map((s) => ({ repo: s.repo, why: insubstantial(s) }))
    .filter((s): s is { repo: string; why: string } => s.why !== undefined);
  if (sides.length - weak.length < 2) {
    const detail = weak.map((w) => `${w.repo} ${w.why}`).join('; ');
    return {
      code: 'not-substantive',
      message: `fewer than two repositories with substantive non-test changes: ${detail}`,
      repos: weak.map((w) => w.repo),
    };
  }
  const files = sides.reduce((n, s) => n + s.files.length, 0);
  const lines = sides.reduce((n, s) => n + s.files.reduce((m, f) => m + f.added + f.removed, 0), 0);
  if (files > limits.maxFiles)
    return {
      code: 'too-large',
      message: `${files} files changed (more than --max-files ${limits.maxFiles})`,
    };
  if (lines > limits.maxLines)
    return {
      code: 'too-large',
      message: `${lines} lines changed (more than --max-lines ${limits.maxLines})`,
    };
  return undefined;
}
