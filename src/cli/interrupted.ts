/**
 * Ctrl-C (or SIGTERM) during an evaluation: not an infrastructure error. The message says what
 * the next run of the same command starts from: the configurations that finished, which the
 * result cache keeps.
 */
export class Interrupted extends Error {
  override readonly name = 'Interrupted';
}

/** `interrupted: 3 of 8 configurations finished and are cached; the same command resumes from them`. */
export function interruptedMessage(finished: number, total: number | undefined, cacheOn: boolean): string {
  const of = total !== undefined ? ` of ${total}` : '';
  if (!cacheOn)
    return `interrupted: ${finished}${of} configurations finished; nothing was cached (--no-cache)`;
  if (finished === 0)
    return `interrupted: no configuration${of ? ` (of ${total})` : ''} finished, so none was cached`;
  return `interrupted: ${finished}${of} configuration${finished === 1 ? '' : 's'} finished and ${finished === 1 ? 'is' : 'are'} cached; the same command resumes from ${finished === 1 ? 'it' : 'them'}`;
}
