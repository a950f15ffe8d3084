/**
 * One GitHub REST read for the Action (`fetch`, no Octokit in the bundle): JSON validated with a
 * zod schema, transient failures (network, 5xx, rate limits) retried, and the rest turned into an
 * input error naming the input whose value led to the request: a wrong name, or a token that
 * cannot read the repository.
 */
import type { z } from 'zod';
import { InfraError, InputError } from '../core/errors.ts';

export interface GitHubApi {
  /** REST base URL, `$GITHUB_API_URL` (https://api.github.com on github.com). */
  url: string;
  token?: string;
}

export interface ReadTarget {
  /** Names the read in messages: `acme/api#7`, `acme/web`. */
  label: string;
  /** The input the read comes from: `pull-requests`, `context`. */
  input: string;
  /** `owner/repo` the token must be able to read. */
  repo: string;
}

const ATTEMPTS = 3;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function getJson<S extends z.ZodType>(
  api: GitHubApi,
  apiPath: string,
  schema: S,
  what: ReadTarget,
): Promise<z.infer<S>> {
  const url = `${api.url.replace(/\/$/, '')}${apiPath}`;
  const headers: Record<string, string> = {
    accept: 'application/vnd.github+json',
    'x-github-api-version': '2022-11-28',
    'user-agent': 'tandem-action',
    ...(api.token ? { authorization: `Bearer ${api.token}` } : {}),
  };
  let last = '';
  for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
    let res: Response;
    try {
      res = await fetch(url, { headers });
    } catch (err) {
      last = `cannot reach ${api.url}: ${(err as Error).message}`;
      if (attempt < ATTEMPTS) await sleep(1000 * attempt);
      continue;
    }
    if (res.ok) {
      const parsed = schema.safeParse(await res.json().catch(() => undefined));
      if (parsed.success) return parsed.data;
      throw new InfraError(
        'fetch',
        `${what.label}: unexpected answer from ${url}: ${parsed.error.issues[0]?.message}`,
      );
    }
    const body = (await res.json().catch(() => ({}))) as { message?: string };
    const why = `${res.status}${body.message ? ` ${body.message}` : ''}`;
    // Rate limits and server errors are worth another try; the rest will not change.
    const transient =
      res.status >= 500 || res.status === 429 || res.headers.get('x-ratelimit-remaining') === '0';
    if (!transient) {
      throw new InputError(
        `input "${what.input}": ${what.label}: ${why} (does the "token" input read ${what.repo}?)`,
        undefined,
        what.input,
      );
    }
    last = `${what.label}: GitHub answered ${why}`;
    if (attempt < ATTEMPTS)
      await sleep(Math.min(10, Number(res.headers.get('retry-after')) || attempt) * 1000);
  }
  throw new InfraError('fetch', last);
}
