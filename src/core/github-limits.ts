/**
 * GitHub's size and count limits, in one place, with the unit GitHub counts in: comment bodies
 * in characters, check-run output in bytes (UTF-8), annotations per request and per step.
 * Every face and the report layer fit their text with `fitText` so nothing GitHub would reject
 * (422) or silently drop leaves Tandem. Pure.
 */

export interface TextLimit {
  max: number;
  unit: 'chars' | 'bytes';
}

/** Issue and PR comment bodies. */
export const COMMENT_LIMIT: TextLimit = { max: 65_536, unit: 'chars' };
/** Check-run `output.summary` and `output.text`, each. */
export const CHECK_RUN_OUTPUT_LIMIT: TextLimit = { max: 65_535, unit: 'bytes' };
/** Check-run `output.title`. */
export const CHECK_RUN_TITLE_LIMIT: TextLimit = { max: 255, unit: 'chars' };
/** A step's job summary (`GITHUB_STEP_SUMMARY`). */
export const JOB_SUMMARY_LIMIT: TextLimit = { max: 1024 * 1024, unit: 'bytes' };
/** Error annotations GitHub shows per step of a workflow (the rest are dropped). */
export const ERROR_ANNOTATIONS_PER_STEP = 10;

const encoder = new TextEncoder();

/** The size of `text` in the limit's unit (UTF-16 code units for `chars`, as GitHub counts). */
export function textSize(text: string, unit: TextLimit['unit']): number {
  return unit === 'chars' ? text.length : encoder.encode(text).length;
}

export function fitsLimit(text: string, limit: TextLimit): boolean {
  // A UTF-8 byte count is at least the character count, so short texts need no encoding.
  if (limit.unit === 'bytes' && text.length * 3 <= limit.max) return true;
  return textSize(text, limit.unit) <= limit.max;
}

/** The longest prefix of `text` within `max` in `unit`, never splitting a character. */
function prefixWithin(text: string, max: number, unit: TextLimit['unit']): string {
  if (max <= 0) return '';
  let end: number;
  if (unit === 'chars') end = Math.min(text.length, max);
  else {
    // Walk code points, adding their UTF-8 lengths, until the next one would not fit.
    let bytes = 0;
    end = 0;
    for (const ch of text) {
      const cp = ch.codePointAt(0)!;
      const size = cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
      if (bytes + size > max) break;
      bytes += size;
      end += ch.length;
    }
  }
  // Never leave half of a surrogate pair at the cut.
  if (end > 0 && end < text.length && /[\ud800-\udbff]/.test(text[end - 1]!)) end -= 1;
  return text.slice(0, end);
}

/**
 * `text` if it fits, else its longest prefix that fits together with `notice` appended (the
 * notice tells the reader where the rest is). The result always fits.
 */
export function fitText(text: string, limit: TextLimit, notice = ''): string {
  if (fitsLimit(text, limit)) return text;
  const room = limit.max - textSize(notice, limit.unit);
  if (room <= 0) return prefixWithin(notice, limit.max, limit.unit);
  return prefixWithin(text, room, limit.unit) + notice;
}
