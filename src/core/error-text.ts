/**
 * Any thrown value as one line of text, for messages that quote what went wrong ("cannot read
 * x: …"). JavaScript lets code throw anything — strings, plain objects, `AggregateError`s whose
 * own message is empty (Node's `connect ECONNREFUSED` on both address families) — and libraries
 * put code frames or stderr in multi-line messages; every quoting site goes through here instead
 * of `(e as Error).message` or `String(e)`, so none prints `undefined`, `[object Object]` or a
 * blank. Pure.
 */

/** Longest text returned: a message quoting a whole file or response stays readable. */
export const MAX_ERROR_TEXT = 2000;

/** A system error's code (`ENOENT`, `EACCES`), when the value carries one. */
export function errorCode(err: unknown): string | undefined {
  const code = isObject(err) ? err.code : undefined;
  return typeof code === 'string' && code ? code : undefined;
}

/**
 * The message of any thrown value on one line: an error's message (its inner errors' when its own
 * is empty, then its code or name), with its cause when that says more; a string as is; any other
 * value as JSON. Lines are trimmed and joined with ` | `; lines of only `^`/`~` (code-frame markers,
 * meaningless once folded) are dropped.
 */
export function errorText(err: unknown): string {
  return oneLine(rawText(err, 0));
}

/**
 * Only the first line of the message: for a message shown where the rest must not go (a YAML code
 * frame quotes the file it read, which may be private, on a check that may be public).
 */
export function errorHeadline(err: unknown): string {
  const first = rawText(err, 0)
    .split(/\r?\n/)
    .find((l) => l.trim());
  return oneLine(first ?? '');
}

/** The system error code when there is one (what a "cannot read" message needs), else errorText. */
export function errorCodeOrText(err: unknown): string {
  return errorCode(err) ?? errorText(err);
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null;
}

function rawText(err: unknown, depth: number): string {
  if (typeof err === 'string') return err;
  if (!isObject(err)) return String(err);
  const own = typeof err.message === 'string' ? err.message.trim() : '';
  const inner =
    !own && depth < 3 && Array.isArray(err.errors)
      ? err.errors.map((e) => rawText(e, depth + 1)).filter(Boolean)
      : [];
  const base =
    own ||
    [...new Set(inner)].join('; ') ||
    errorCode(err) ||
    (err instanceof Error ? err.name : undefined) ||
    json(err);
  const cause = 'cause' in err && err.cause !== undefined && depth < 3 ? rawText(err.cause, depth + 1) : '';
  return cause && !base.includes(cause) ? `${base} (cause: ${cause})` : base;
}

function json(v: object): string {
  try {
    return JSON.stringify(v) ?? String(v);
  } catch {
    return String(v);
  }
}

function oneLine(text: string): string {
  const folded = text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l && !/^[\^~]+$/.test(l))
    .join(' | ');
  const line = folded || 'unknown error';
  return line.length > MAX_ERROR_TEXT ? `${line.slice(0, MAX_ERROR_TEXT - 1)}…` : line;
}
