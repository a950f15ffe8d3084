/**
 * The leak filter: every text that leaves the evaluator (comments, check runs, job summaries,
 * annotations, Markdown and JSON reports) passes through one of these, built from the suite's
 * hidden files. It removes what would reveal them: their paths (as the suite writes them, and
 * their file names) and their content — any line of a hidden file long enough to be telling,
 * verbatim or hex-encoded (a PR can make its own output quote what it read from $TANDEM_HIDDEN).
 * It cannot catch every encoding a determined PR might invent; SECURITY.md says so. Pure.
 */

export interface HiddenText {
  /** The path as the suite names it (`hidden/api.test.js`), or an absolute host path. */
  path: string;
  content: string;
}

/** Lines shorter than this are too common (`});`, `import x`) to mean a hidden file. */
export const MIN_LEAK_LINE = 16;
/** File names at least this long are refused (`a.js` would garble ordinary text). */
const MIN_NAME = 5;
export const REDACTED = '[hidden]';
/** The scan keys on this many characters (every needle is longer), packed into one number. */
const KEY = 3;
const keyAt = (t: string, i: number): number =>
  (t.charCodeAt(i) * 65536 + t.charCodeAt(i + 1)) * 65536 + t.charCodeAt(i + 2);

export class LeakFilter {
  /** Longest first, so a line is replaced before a shorter piece of it. */
  private readonly needles: string[];
  /**
   * Needles by their first KEY characters: a text is scanned once, looking each position up,
   * instead of searching it for every needle (thousands of hidden lines × every report string).
   */
  private readonly byPrefix = new Map<number, string[]>();

  constructor(files: readonly HiddenText[]) {
    const set = new Set<string>();
    for (const f of files) {
      const p = f.path.replaceAll('\\', '/');
      // A bare word (`hidden`, `tests`: a folder) would garble ordinary text; paths and file names do not.
      if (p.length >= MIN_NAME && /[/.]/.test(p)) set.add(p);
      // A file's name alone (`api.test.js`), not a folder's (`hidden` is an ordinary word).
      const name = p.split('/').filter(Boolean).pop();
      if (name && name.length >= MIN_NAME && name.includes('.') && !p.startsWith('/')) set.add(name);
      for (const raw of f.content.split(/\r?\n/)) {
        const line = raw.trim();
        if (line.length < MIN_LEAK_LINE) continue;
        set.add(line);
        set.add(Buffer.from(line).toString('hex'));
      }
    }
    this.needles = [...set].sort((a, b) => b.length - a.length);
    for (const n of this.needles) {
      const key = keyAt(n, 0);
      const list = this.byPrefix.get(key);
      if (list) list.push(n);
      else this.byPrefix.set(key, [n]);
    }
  }

  /** Whether `text` would be changed by the filter. */
  leaks(text: string): boolean {
    if (this.byPrefix.size === 0) return false;
    for (let i = 0; i + KEY <= text.length; i++) {
      const list = this.byPrefix.get(keyAt(text, i));
      if (list?.some((n) => text.startsWith(n, i))) return true;
    }
    return false;
  }

  /** `text` with every hidden path and hidden line replaced by `[hidden]`. */
  text(text: string): string {
    if (!this.leaks(text)) return text;
    let out = text;
    for (const n of this.needles) if (out.includes(n)) out = out.replaceAll(n, REDACTED);
    return out;
  }

  /** A JSON value (a report) with every string filtered; keys are kept. */
  value<T>(value: T): T {
    return JSON.parse(JSON.stringify(value), (_key, v: unknown) =>
      typeof v === 'string' ? this.text(v) : v,
    ) as T;
  }
}

/** A filter that changes nothing (no hidden files). */
export const NO_LEAK_FILTER = new LeakFilter([]);
