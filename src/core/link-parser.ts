/**
 * Links between pull requests, read from a PR's title and body (Zuul's `Depends-On:`), and the
 * `/tandem` commands read from comments. Pure: no I/O.
 */

/** A pull request reference: `owner/name#number`. */
export interface PullRef {
  owner: string;
  repo: string;
  number: number;
}

export type TandemCommand =
  | { kind: 'run' }
  | { kind: 'matrix'; mode: 'full' | 'leave-one-out' | 'auto' }
  | { kind: 'link'; ref: PullRef }
  | { kind: 'unlink'; ref: PullRef };

const NAME = '[A-Za-z0-9_.-]+';
const URL_REF = new RegExp(`^https?://[^\\s/]+/(${NAME})/(${NAME})/pull/(\\d+)(?:[/?#]\\S*)?$`, 'i');
const FULL_REF = new RegExp(`^(${NAME})/(${NAME})#(\\d+)$`);
const SHORT_REF = /^#(\d+)$/;
const DEPENDS_ON = /^\s*(?:[-*>]\s*)?depends-on\s*:\s*(.+?)\s*$/i;
const FENCE = /^\s*(```|~~~)/;

/** `owner/name#N` for a reference: the key the link index and the sets use. */
export function pullKey(ref: PullRef): string {
  return `${ref.owner}/${ref.repo}#${ref.number}`.toLowerCase();
}

export function parsePullKey(key: string): PullRef {
  const m = FULL_REF.exec(key);
  if (!m) throw new Error(`not a pull request key: ${key}`);
  return { owner: m[1]!, repo: m[2]!, number: Number(m[3]) };
}

/**
 * One reference as users write it: a PR URL, `owner/name#N`, or `#N` (same repository as `self`).
 * Returns undefined for anything else.
 */
export function parsePullRef(text: string, self: { owner: string; repo: string }): PullRef | undefined {
  const t = text.trim().replace(/^<(.+)>$/, '$1');
  let m = URL_REF.exec(t);
  if (m) return { owner: m[1]!, repo: m[2]!, number: Number(m[3]) };
  m = FULL_REF.exec(t);
  if (m) return { owner: m[1]!, repo: m[2]!, number: Number(m[3]) };
  m = SHORT_REF.exec(t);
  if (m) return { owner: self.owner, repo: self.repo, number: Number(m[1]) };
  return undefined;
}

/** Lines outside fenced code blocks: links and commands inside examples don't count. */
export function linesOutsideFences(text: string): string[] {
  const out: string[] = [];
  let fence: string | undefined;
  for (const line of text.split(/\r?\n/)) {
    const m = FENCE.exec(line);
    if (m) {
      if (!fence) fence = m[1];
      else if (m[1] === fence) fence = undefined;
      continue;
    }
    if (!fence) out.push(line);
  }
  return out;
}

/**
 * Every `Depends-On:` reference in a title and body, deduplicated, in order. A line may list
 * several references separated by commas or spaces. Self-references are dropped.
 */
export function parseLinks(
  title: string,
  body: string | null | undefined,
  self: { owner: string; repo: string; number: number },
): PullRef[] {
  const seen = new Set<string>([pullKey(self)]);
  const out: PullRef[] = [];
  for (const line of [title, ...linesOutsideFences(body ?? '')]) {
    const m = DEPENDS_ON.exec(line);
    if (!m) continue;
    for (const word of m[1]!.split(/[\s,]+/)) {
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

/** `/tandem ...` commands in a comment, one per line, outside code fences. */
export function parseCommands(body: string, self: { owner: string; repo: string }): TandemCommand[] {
  const out: TandemCommand[] = [];
  for (const line of linesOutsideFences(body)) {
    const words = line.trim().split(/\s+/);
    if (words[0]?.toLowerCase() !== '/tandem') continue;
    const verb = words[1]?.toLowerCase();
    if (verb === 'run' || verb === 'recheck') out.push({ kind: 'run' });
    else if (verb === 'matrix') {
      const mode = words[2]?.toLowerCase();
      if (mode === 'full' || mode === 'leave-one-out' || mode === 'auto') out.push({ kind: 'matrix', mode });
    } else if (verb === 'link' || verb === 'unlink') {
      for (const word of words.slice(2)) {
        const ref = parsePullRef(word.replace(/,$/, ''), self);
        if (ref) out.push({ kind: verb, ref });
      }
    }
  }
  return out;
}
