/**
 * Cross-repository cues in PR titles, PR bodies and commit messages: what links one change to
 * an issue or pull request (of its own repository or another). Pure: no I/O.
 *
 * Real messages are messy, so every form below counts, wherever it appears:
 * - `Depends-On:` lines, read with the App's parser (same rules as live linking);
 * - closing keywords: `Fixes #63`, `Closes GH-63` (the repository's own issue 63),
 *   `resolves org/repo#63`, `Fixed: https://host/org/repo/issues/63`;
 * - trailers with any key, misspelt ones too (`Related-to:`, `Relates-To:`, `Refrences:`), as
 *   long as the value carries a reference;
 * - any other reference: `org/repo#63`, `GH-63`, `#63`, an issue or PR URL on any host.
 * Issues and pull requests share one number sequence per repository, so both are keyed
 * `owner/name#N` (lower case), the key of `pullKey`.
 */
import { parseLinks } from '../core/link-parser.ts';
import type { TextCueKind } from '../core/link-score.ts';
import { proseLines, proseOfLine } from '../core/markdown-prose.ts';
import { pullKey } from '../core/pull-ref.ts';
import type { RepoParts } from '../core/repo-name.ts';

export type CueKind = TextCueKind;

export interface Cue {
  kind: CueKind;
  /** `owner/name#N`, lower case: the issue or PR referred to. */
  target: string;
  /** The words that carried it, for provenance (`Closes GH-63`, `Related-to: org/repo#63`). */
  text: string;
}

const OWNER = '[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})';
const REPO = '[A-Za-z0-9_.-]{1,100}';
const NUM = '([1-9]\\d{0,9})';
/** One reference, in any form; groups: URL (owner, repo, n), full (owner, repo, n), GH-n, #n. */
const REF_SOURCE =
  `https?://[^\\s/]+/(${OWNER})/(${REPO})/(?:pull|pulls|issues)/${NUM}(?![\\d])` +
  `|(?<![\\w./-])(${OWNER})/(${REPO})#${NUM}(?!\\d)` +
  `|(?<![\\w-])GH-${NUM}(?!\\d)` +
  `|(?<![\\w&/#])#${NUM}(?![\\d\\w])`;
const CLOSING = '(?:close[sd]?|fix(?:e[sd])?|resolve[sd]?)';
const CLOSING_RE = new RegExp(`\\b${CLOSING}\\b\\s*:?\\s*$`, 'i');
/** `Key: value` at the start of a line, the key being any word-ish token (typos included). */
const TRAILER_RE = /^\s*([A-Za-z][A-Za-z0-9 _-]{0,40}?)\s*:(?!\/\/)\s*\S/;
/** Text read per message: keeps scanning linear on hostile input. */
const MAX_TEXT = 64 * 1024;

interface Found {
  target: string;
  index: number;
  length: number;
}

function refsIn(line: string, self: RepoParts): Found[] {
  const out: Found[] = [];
  for (const m of line.matchAll(new RegExp(REF_SOURCE, 'gi'))) {
    const g = m.slice(1);
    let ref: { owner: string; repo: string; number: number } | undefined;
    if (g[0]) ref = { owner: g[0], repo: g[1]!, number: Number(g[2]) };
    else if (g[3]) ref = { owner: g[3], repo: g[4]!.replace(/\.git$/, ''), number: Number(g[5]) };
    else if (g[6]) ref = { ...self, number: Number(g[6]) };
    else if (g[7]) ref = { ...self, number: Number(g[7]) };
    if (ref && Number.isSafeInteger(ref.number)) {
      out.push({ target: pullKey(ref), index: m.index ?? 0, length: m[0].length });
    }
  }
  return out;
}

/**
 * The cues of one plain text (a commit message, or prose already taken out of Markdown).
 * `self` is the repository the text was written in: `#63` and `GH-63` point there.
 */
export function cuesInText(text: string, self: RepoParts): Cue[] {
  const out: Cue[] = [];
  for (const line of text.slice(0, MAX_TEXT).split(/\r?\n/)) {
    const trailer = TRAILER_RE.exec(line);
    const trailerKey = trailer?.[1]?.trim();
    for (const f of refsIn(line, self)) {
      const before = line.slice(0, f.index);
      const word = line.slice(f.index, f.index + f.length);
      const closing = CLOSING_RE.exec(before);
      if (closing) out.push({ kind: 'closes', target: f.target, text: `${closing[0].trim()} ${word}` });
      else if (trailerKey && /^depends[ _-]?on$/i.test(trailerKey))
        out.push({ kind: 'depends-on', target: f.target, text: `Depends-On: ${word}` });
      else if (trailerKey && CLOSING_RE.test(trailerKey))
        out.push({ kind: 'closes', target: f.target, text: `${trailerKey}: ${word}` });
      else if (trailerKey) out.push({ kind: 'trailer', target: f.target, text: `${trailerKey}: ${word}` });
      else out.push({ kind: 'reference', target: f.target, text: word });
    }
  }
  return out;
}

/** Keeps the first cue per target: provenance wants one line per link, not repeats. */
export function uniqueCues(cues: readonly Cue[]): Cue[] {
  const seen = new Set<string>();
  return cues.filter((c) => {
    if (seen.has(c.target)) return false;
    seen.add(c.target);
    return true;
  });
}

/**
 * The cues of a pull request: `Depends-On` lines (the App's parser), then closing keywords,
 * trailers and references in its title, its body's prose and its commit messages.
 * A PR's reference to itself is no cue.
 */
export function cuesInPullRequest(
  pr: { owner: string; repo: string; number: number; title: string; body: string | null },
  commitMessages: readonly string[] = [],
): Cue[] {
  const self = { owner: pr.owner, repo: pr.repo };
  const own = pullKey({ ...self, number: pr.number });
  const depends: Cue[] = parseLinks(pr.title, pr.body, { ...self, number: pr.number }).map((ref) => ({
    kind: 'depends-on',
    target: pullKey(ref),
    text: `Depends-On: ${ref.owner}/${ref.repo}#${ref.number}`,
  }));
  // Title and body `Depends-On` lines are the App's parser's alone (its rules, not ours).
  const described = [proseOfLine(pr.title), proseLines(pr.body ?? '').join('\n')]
    .flatMap((t) => cuesInText(t, self))
    .filter((c) => c.kind !== 'depends-on');
  const found = [...described, ...commitMessages.flatMap((t) => cuesInText(t, self))];
  return uniqueCues([...depends, ...found]).filter((c) => c.target !== own);
}
