/**
 * A read a command-line flag asked for (`tandem mine github --org/--repo`), its failure said as
 * what it is, classified once by `http-errors.ts`: a token GitHub refuses, or an organization or
 * repository the token cannot see, is bad input (exit 2) naming the flag; a rate limit still
 * exceeded after waiting, a server error, no answer, or an answer of the wrong shape is
 * infrastructure trouble (exit 3).
 */
import { z } from 'zod';
import { InfraError, InputError } from '../core/errors.ts';
import { describeIssues } from '../core/zod-issues.ts';
import { classifyHttpFailure, type RateLimit } from './http-errors.ts';

export interface RateLimitRecord {
  rateLimitOf(method: string, url: string): RateLimit | undefined;
}

export async function reading<T>(
  api: RateLimitRecord,
  what: string,
  read: () => Promise<T>,
  opts: { userNamed?: boolean } = {},
): Promise<T> {
  try {
    return await read();
  } catch (e) {
    if (e instanceof InputError || e instanceof InfraError) throw e;
    if (e instanceof z.ZodError)
      throw new InfraError('fetch', `${what}: unexpected answer from GitHub: ${describeIssues(e).text}`);
    const failure = classifyHttpFailure(e, (m, u) => api.rateLimitOf(m, u));
    if (failure.kind === 'no-answer')
      throw new InfraError('fetch', `${what}: no answer from GitHub: ${failure.message}`);
    if (failure.kind === 'rate-limit')
      throw new InfraError(
        'fetch',
        `${what}: GitHub's ${failure.limit} rate limit is still exceeded after waiting (${failure.why}); run again later`,
      );
    if (failure.kind === 'refused' && failure.status === 401)
      throw new InputError(`${what}: GitHub refused the token (401); check GITHUB_TOKEN`);
    if (failure.kind === 'refused' && opts.userNamed && (failure.status === 403 || failure.status === 404))
      throw new InputError(`${what}: not found, or GITHUB_TOKEN cannot read it (${failure.status})`);
    throw new InfraError('fetch', `${what}: GitHub answered ${failure.why}`);
  }
}
