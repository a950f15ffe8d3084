/**
 * GitHub requests as the `tandem_github_requests_total` metric counts them: the class of a REST
 * route, for its `route` label (a handful of names that say what the App was doing; a label per
 * URL would grow without bound, one per PR), and the `fetch` wrapper that counts every attempt.
 */
const CLASSES: ReadonlyArray<readonly [RegExp, string]> = [
  [/^\/app\/installations\/[^/]+\/access_tokens$/, 'installation-token'],
  [/^\/(app|installation)(\/|$)/, 'app'],
  [/^\/graphql$/, 'graphql'],
  [/^\/search\//, 'search'],
  [/\/check-runs(\/|$)|\/check-suites(\/|$)/, 'check-runs'],
  [/\/issues\/comments(\/|$)|\/issues\/[^/]+\/comments$/, 'comments'],
  [/\/issues\/[^/]+\/reactions$|\/comments\/[^/]+\/reactions$/, 'reactions'],
  [/\/pulls\/[^/]+\/merge$/, 'merges'],
  [/\/pulls(\/|$)/, 'pulls'],
  [/\/contents\//, 'contents'],
  [/\/git\//, 'git'],
  [/\/actions\//, 'actions'],
  [/\/collaborators\//, 'permissions'],
  [/\/(branches|rules|rulesets)(\/|$)/, 'branches'],
  [/\/commits(\/|$)|\/compare\//, 'commits'],
];

/**
 * `url`: the request's URL or path (`https://api.github.com/repos/o/r/check-runs/5?x=1` or a
 * GHE host's `/api/v3/…`): the class of the first rule its path matches, `repos` for the rest
 * of a repository's API, `other` otherwise.
 */
export function githubRouteClass(url: string): string {
  let path: string;
  try {
    path = new URL(url, 'http://github.invalid').pathname;
  } catch {
    return 'other';
  }
  // GitHub Enterprise Server serves the same API under /api/v3 (and GraphQL under /api/graphql).
  path = path.replace(/^\/api\/v3(?=\/)/, '').replace(/^\/api\/graphql$/, '/graphql');
  for (const [pattern, name] of CLASSES) if (pattern.test(path)) return name;
  return path.startsWith('/repos/') ? 'repos' : 'other';
}

const COUNTING = Symbol('tandem.countingFetch');

/**
 * Counts each HTTP attempt `inner` makes (retries included) by method, route class and status.
 * An `inner` that already counts is returned as is: Octokit hands a client's options to the
 * clients it derives (an installation's from the App's), and each must count a request once.
 */
export function countingFetch(
  count: (method: string, route: string, status: number) => void,
  inner: typeof fetch = globalThis.fetch,
): typeof fetch {
  if (COUNTING in inner) return inner;
  const counting: typeof fetch = async (input, init) => {
    const request = input instanceof Request ? input : undefined;
    const method = (init?.method ?? request?.method ?? 'GET').toUpperCase();
    const route = githubRouteClass(request ? request.url : String(input));
    try {
      const res = await inner(input, init);
      count(method, route, res.status);
      return res;
    } catch (e) {
      // No answer at all (refused, reset, aborted): status 0.
      count(method, route, 0);
      throw e;
    }
  };
  return Object.assign(counting, { [COUNTING]: true });
}
