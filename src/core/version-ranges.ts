/**
 * Versions as dependency ranges, tags and version fields write them, compared the way a bump
 * means them: the version a range moved to is its lower bound (`^2.1.0`, `>=2.1,<3`, `~=2.1`,
 * `v2.1.0`), equal to a release when the numbers agree (`v2.1` = `2.1.0`). A Go pseudo-version
 * names the producer's commit instead. Pure.
 */

const NUMBERS = /(\d+(?:\.\d+){0,3})((?:[-+][0-9A-Za-z.-]+)?)/;

/** `2.1` → `2.1.0`, `v2.1.0` → `2.1.0`, `2.1.0-rc.1` kept with its suffix; undefined if none. */
export function normalVersion(text: string): string | undefined {
  const m = NUMBERS.exec(text.trim().replace(/^v(?=\d)/, ''));
  if (!m) return undefined;
  const parts = m[1]!.split('.');
  while (parts.length < 3) parts.push('0');
  return `${parts.map((p) => String(Number(p))).join('.')}${m[2] ?? ''}`;
}

/** The version a range starts at: what a consumer moving to it adopts. */
export function lowerBound(range: string): string | undefined {
  const text = range.trim();
  if (
    /^(?:workspace:|npm:|file:|link:|git|https?:|\.{1,2}\/|\/)/.test(text) &&
    !/^workspace:[~^]?\d/.test(text)
  )
    return undefined;
  // The first comparator that does not bound from above (`<3` is no lower bound).
  for (const part of text.replace(/^workspace:/, '').split(/\s*(?:,|\|\||\s)\s*/)) {
    if (/^</.test(part) || /^!=/.test(part)) continue;
    const v = normalVersion(part.replace(/^(?:[~^]|>=?|==?=?|~=)\s*/, ''));
    if (v) return v;
  }
  return undefined;
}

/** Whether two versions are one release (`v2.0` and `2.0.0`). */
export function sameVersion(a: string, b: string): boolean {
  const x = normalVersion(a);
  return x !== undefined && x === normalVersion(b);
}

/** The commit a Go pseudo-version names (`v0.0.0-20240102150405-abcdef123456` → `abcdef123456`). */
export function pseudoVersionCommit(version: string): string | undefined {
  return /^v\d+\.\d+\.\d+-(?:[\w.]+\.)?\d{14}-([0-9a-f]{12})$/.exec(version)?.[1];
}

/**
 * The version a tag names, and the package when it says one: `v2.0.0`, `2.0.0`, `lib@2.0.0`,
 * `@acme/lib@2.0.0`, `lib-v2.0.0`, `sub/module/v2.0.0` (Go submodules).
 */
export function versionOfTag(tag: string): { version: string; name?: string } | undefined {
  const m = /^(?:(.*?)(?:@|[-/_]))?v?(\d+\.\d+(?:\.\d+)?(?:[-+][0-9A-Za-z.-]+)?)$/.exec(tag.trim());
  if (!m) return undefined;
  const version = normalVersion(m[2]!);
  if (!version) return undefined;
  return m[1] ? { version, name: m[1] } : { version };
}
