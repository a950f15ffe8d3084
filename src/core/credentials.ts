/**
 * Credentials in clone URLs, and the one scrubber that keeps them (and any other secret we
 * know) out of everything that leaves Tandem: reports, comments, check runs, logs, errors.
 * Pure.
 */

/** The user GitHub expects for a token in basic auth (installation and Actions tokens alike). */
export const TOKEN_USER = 'x-access-token';

/**
 * `clone_url` carrying a token as basic-auth credentials, so private repositories can be
 * fetched over HTTP(S). Other schemes (ssh, file) are returned unchanged, without the token.
 */
export function cloneUrlWithToken(cloneUrl: string, token: string | undefined): string {
  if (!token) return cloneUrl;
  let url: URL;
  try {
    url = new URL(cloneUrl);
  } catch {
    return cloneUrl;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return cloneUrl;
  url.username = TOKEN_USER;
  url.password = token;
  return url.toString();
}

// `scheme://user[:password]@`: the userinfo part of any URL in a text. No nested quantifiers.
const URL_USERINFO = /(\b[a-z][a-z0-9+.-]*:\/\/)[^/@\s]+@/gi;
// GitHub's token formats: classic (`ghp_`, `gho_`, `ghu_`, `ghs_`, `ghr_`) and fine-grained.
const GITHUB_TOKEN = /\b(gh[pousr]_|github_pat_)[A-Za-z0-9_]{8,}/g;
/** Shorter secrets are not replaced: `***` for every `a` would garble text and hide nothing. */
const MIN_SECRET_LENGTH = 4;

/**
 * The text with URL credentials, GitHub tokens and the given secrets replaced by `***`.
 * Apply to every string that may leave the process.
 */
export function scrubCredentials(text: string, secrets: readonly string[] = []): string {
  let out = text.replace(URL_USERINFO, '$1***@').replace(GITHUB_TOKEN, '$1***');
  for (const s of secrets) if (s.length >= MIN_SECRET_LENGTH) out = out.replaceAll(s, '***');
  return out;
}

/** A URL without its userinfo at all: a repository's name for messages and cache keys. */
export function urlWithoutCredentials(text: string): string {
  return text.replace(URL_USERINFO, '$1');
}

/** A copy of a JSON-like value (a report) with `scrubCredentials` applied to every string. */
export function scrubCredentialsDeep<T>(value: T, secrets: readonly string[] = []): T {
  const visit = (v: unknown): unknown => {
    if (typeof v === 'string') return scrubCredentials(v, secrets);
    if (Array.isArray(v)) return v.map(visit);
    if (v !== null && typeof v === 'object')
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, visit(x)]));
    return v;
  };
  return visit(value) as T;
}
