/**
 * The message an evaluation that ended without a report shows on GitHub: a suite error as the
 * evaluator wrote it, anything else as an evaluation failure; with tokens in clone URLs and the
 * suite's folder and hidden file names removed (hidden tests never leave the evaluator).
 */
import { scrubCredentials } from '../../core/credentials.ts';
import { InputError } from '../../core/errors.ts';
import { LeakFilter } from '../../core/leak-filter.ts';

/** `privatePaths`: the suite's working folder and its hidden files' paths. */
export function publicFailureMessage(e: unknown, privatePaths: readonly string[]): string {
  const raw = e instanceof InputError ? e.message : `evaluation failed: ${(e as Error).message}`;
  return new LeakFilter(privatePaths.map((path) => ({ path, content: '' }))).text(scrubCredentials(raw));
}
