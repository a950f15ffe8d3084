/**
 * Versions as dependency ranges, tags and version fields write them, compared the way a bump
 * means them: the version a range moved to is its lower bound (`^2.1.0`, `>=2.1,<3`, `~=2.1`,
 * `v2.1.0`), equal to a release when the numbers agree (`v2.1` = `2.1.0`). A Go pseudo-version
 * names the producer's commit instead. Pure.
 *
 * npm ranges (and Go's `v1.2.3`, which is SemVer with a `v`) are read by the `semver` package,
 * npm's own reader: exclusive bounds (`>1.2.3` starts at 1.2.4), unions (`^1 || ^0.9` starts at
 * 0.9.0), X-ranges, hyphen ranges and build metadata as npm means them. `semver` cannot read
 * Python's specifiers (`~=2.1`, `>=2.1,<3`, `==2.1.*`) or four-part versions (`1.2.3.4`), so
 * those keep a small reader of their own: the first comparator that bounds from below.
 */
import semver from 'semver';

const NUMBERS = /(\d+(?:\.\d+){0,3})((?:[-+][0-9A-Za-z.-]+)?)/;

/** Specs that name a place, not a version: paths, git and tarball URLs, npm aliases, `workspace:*`. */
const NOT_A_VERSION = /^(?:workspace:|npm:|file:|link:|git|https?:|\.{1,2}\/|\/)/;

/** Python's specifier syntax, which npm ranges never use: `~=`, `==`, `!=`, comma-separated clauses. */
const PYTHON_SPECIFIER = /~=|==|!=|,/;

/** `2.1` → `2.1.0`, `v2.1.0` → `2.1.0`, `2.1.0-rc.1` kept with its suffix; undefined if none. */
export function normalVersion(text: string): string | undefined {
  const m = NUMBERS.exec(text.trim().replace(/^v(?=\d)/, ''));
  if (!m) return undefined;
  const parts = m[1]!.split('.');
  while (parts.length < 3) parts.push('0');
  const version = `${parts.map((p) => String(Number(p))).join('.')}${m[2] ?? ''}`;
  // SemVer's own form where it applies: build metadata (`+build.5`) is no part of the release.
  return semver.valid(version) ?? version;
}

/** The version a range starts at: what a consumer moving to it adopts. */
export function lowerBound(range: string): string | undefined {
  let text = range.trim();
  if (NOT_A_VERSION.test(text) && !/^workspace:[~^]?\d/.test(text)) return undefined;
  text = text.replace(/^workspace:/, '');
  if (PYTHON_SPECIFIER.test(text)) return pythonLowerBound(text);
  const npmRange = semver.validRange(text);
  if (npmRange === null) return /^v?\d/.test(text) ? normalVersion(text) : undefined;
  // A range that admits 0.0.0 (`*`, `<2`, `<2 || >=3`) has no lower bound a consumer moved to.
  if (semver.satisfies('0.0.0', npmRange)) return undefined;
  return semver.minVersion(npmRange)?.version;
}

/** Python: the first clause that does not bound from above (`<3` and `!=2.2` are no lower bound). */
function pythonLowerBound(spec: string): string | undefined {
  for (const clause of spec.split(/\s*,\s*/)) {
    if (/^\s*(?:<|!=)/.test(clause)) continue;
    const v = normalVersion(clause.replace(/^\s*(?:~=|===?|>=?)\s*/, ''));
    if (v) return v;
  }
  return undefined;
}

/** Whether two versions are one release (`v2.0` and `2.0.0`; `1.2.3+build.5` and `1.2.3`). */
export function sameVersion(a: string, b: string): boolean {
  const x = normalVersion(a);
  const y = normalVersion(b);
  if (x === undefined || y === undefined) return false;
  return semver.valid(x) && semver.valid(y) ? semver.eq(x, y) : x === y;
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
