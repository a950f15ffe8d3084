/**
 * Links between pull requests, read from a PR's title and body (Zuul's `Depends-On:`), and the
 * `/tandem` commands read from comments. Only prose counts: lines in code, HTML comments or raw
 * HTML are skipped (see markdown-prose.ts). Pure: no I/O.
 */

import { proseLines, proseOfLine } from './markdown-prose.ts';
import { type MatrixMode, matrixModeSchema } from './matrix-mode.ts';
import { type PullRef, parsePullRef, pullKey } from './pull-ref.ts';
import type { RepoParts } from './repo-name.ts';

export type TandemCommand =
  /** `fresh`: `/tandem run --fresh` evaluates again even when a published result fits the heads. */
  | { kind: 'run'; fresh?: true }
  | { kind: 'merge' }
  /** `/tandem dequeue`: the linked set leaves the merge queue. */
  | { kind: 'dequeue' }
  | { kind: 'matrix'; mode: MatrixMode }
  | { kind: 'link'; ref: PullRef }
  | { kind: 'unlink'; ref: PullRef };

// Anchored and free of nested quantifiers: linear on any line.
const DEPENDS_ON = /^[ \t]*depends-on[ \t]*:/i;

/**
 * Every `Depends-On:` reference in a title and body, deduplicated, in order. A line may list
 * several references separated by commas or spaces. Self-references are dropped.
 */
export function parseLinks(title: string, body: string | null | undefined, self: PullRef): PullRef[] {
  const seen = new Set<string>([pullKey(self)]);
  const out: PullRef[] = [];
  for (const line of [proseOfLine(title), ...proseLines(body ?? '')]) {
    const m = DEPENDS_ON.exec(line);
    if (!m) continue;
    for (const word of line.slice(m[0].length).split(/[\s,]+/)) {
      const ref = parsePullRef(word, self);
      if (!ref) continue;
      const key = pullKey(ref);
      if (seen.has(key)) continue;
      seen.add(key);
      out.push(ref);
    }
  }
  return out;
}

/** `/tandem ...` commands in a comment, one per line, in prose only. */
export function parseCommands(body: string, self: RepoParts): TandemCommand[] {
  const out: TandemCommand[] = [];
  for (const line of proseLines(body, { skipQuotes: true })) {
    const words = line.trim().split(/\s+/);
    if (words[0]?.toLowerCase() !== '/tandem') continue;
    const verb = words[1]?.toLowerCase();
    if (verb === 'run' || verb === 'recheck')
      out.push(
        words.slice(2).some((w) => w.toLowerCase() === '--fresh')
          ? { kind: 'run', fresh: true }
          : { kind: 'run' },
      );
    // Exactly `/tandem merge`: a merge is not something to guess from trailing words.
    else if (verb === 'merge' && words.length === 2) out.push({ kind: 'merge' });
    else if (verb === 'dequeue' && words.length === 2) out.push({ kind: 'dequeue' });
    else if (verb === 'matrix') {
      const mode = matrixModeSchema.safeParse(words[2]?.toLowerCase());
      if (mode.success) out.push({ kind: 'matrix', mode: mode.data });
    } else if (verb === 'link' || verb === 'unlink') {
      for (const word of words.slice(2)) {
        const ref = parsePullRef(word.replace(/,$/, ''), self);
        if (ref) out.push({ kind: verb, ref });
      }
    }
  }
  return out;
}
