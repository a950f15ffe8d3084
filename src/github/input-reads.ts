/**
 * One REST read that an input asked for (the Action's `pull-requests` and `context` lines), its
 * answer validated with zod. What still fails after the client's retries and waits
 * (http-errors.ts decides which class):
 * - a rate limit the plugin gave up on: infrastructure trouble, said to be a rate limit;
 * - 401/403/404 and other refusals: bad input naming the input that led to the request (a wrong
 *   name, or a token that cannot read the repository);
 * - anything else (5xx after retries, no connection, an answer of the wrong shape): infrastructure.
 */
import type { z } from 'zod';
import { InfraError, InputError } from '../core/errors.ts';
import { describeIssues } from '../core/zod-issues.ts';
import { classifyHttpFailure } from './http-errors.ts';
import type { GitHubApi, TokenOctokit } from './token-client.ts';

/** Names a read in messages and says which input led to it. */
export interface ReadTarget {
  /** `acme/api#7`, `acme/web`. */
  label: string;
  /** `pull-requests`, `context`. */
  input: string;
  /** `owner/repo` the token must be able to read. */
  repo: string;
  /** How the face names the input and the token (default: the Action's words). */
  names?: InputNames;
}

/** How a face names what the user gave it: the Action's inputs, or the CLI's options. */
export interface InputNames {
  /** `input "pull-requests"`, `option --pr`. */
  pulls: string;
  /** `input "context"`, `option --context`. */
  context: string;
  /** `the "token" input`, `GITHUB_TOKEN`. */
  token: string;
}

export const ACTION_INPUT_NAMES: InputNames = {
  pulls: 'input "pull-requests"',
  context: 'input "context"',
  token: 'the "token" input',
};

export async function readJson<S extends z.ZodType>(
  api: GitHubApi,
  what: ReadTarget,
  call: (octokit: TokenOctokit) => Promise<{ data: unknown }>,
  schema: S,
): Promise<z.infer<S>> {
  let data: unknown;
  try {
    ({ data } = await call(api.octokit));
  } catch (err) {
    throw explainFailure(api, what, err);
  }
  const parsed = schema.safeParse(data);
  if (parsed.success) return parsed.data;
  throw new InfraError(
    'fetch',
    `${what.label}: unexpected answer from ${api.baseUrl}: ${describeIssues(parsed.error).text}`,
    { target: what.repo },
  );
}

function explainFailure(api: GitHubApi, what: ReadTarget, err: unknown): Error {
  const f = classifyHttpFailure(err, api.rateLimitOf);
  const target = { target: what.repo };
  switch (f.kind) {
    case 'no-answer':
      return new InfraError('fetch', `${what.label}: cannot reach ${api.baseUrl}: ${f.message}`, target);
    case 'rate-limit':
      return new InfraError(
        'fetch',
        `${what.label}: GitHub's ${f.limit} rate limit for this token is still exceeded after waiting (${f.why}); run the job again later`,
        target,
      );
    case 'server':
      return new InfraError('fetch', `${what.label}: GitHub answered ${f.why}`, target);
    case 'refused':
      return new InputError(
        `${inputLabel(what)}: ${what.label}: ${f.why} (does ${(what.names ?? ACTION_INPUT_NAMES).token} read ${what.repo}?)`,
        undefined,
        what.input,
      );
  }
}

function inputLabel(what: ReadTarget): string {
  const names = what.names ?? ACTION_INPUT_NAMES;
  if (what.input === 'pull-requests') return names.pulls;
  if (what.input === 'context') return names.context;
  return `input "${what.input}"`;
}
