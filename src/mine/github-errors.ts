/**
 * GitHub failures while mining, said as what they are: a token GitHub refuses, or an
 * organization or repository the token cannot see, is bad input (exit 2) naming the flag; any
 * other answer or no answer at all is infrastructure trouble (exit 3). Decided by HTTP status.
 */
import { InfraError, InputError } from '../core/errors.ts';
import { httpStatus } from '../github/octokit.ts';

export async function reading<T>(
  what: string,
  read: () => Promise<T>,
  opts: { userNamed?: boolean } = {},
): Promise<T> {
  try {
    return await read();
  } catch (e) {
    if (e instanceof InputError || e instanceof InfraError) throw e;
    const status = httpStatus(e);
    const message = e instanceof Error ? e.message : String(e);
    if (status === 401) throw new InputError(`${what}: GitHub refused the token (401); check GITHUB_TOKEN`);
    if (opts.userNamed && (status === 403 || status === 404))
      throw new InputError(`${what}: not found, or GITHUB_TOKEN cannot read it (${status})`);
    throw new InfraError('fetch', `${what}: ${status ? `GitHub answered ${status}: ` : ''}${message}`);
  }
}
