/**
 * Stable test ids: `<group>::<classname>::<name>`. Whitespace is folded and the separator is
 * escaped inside parts so that ids split back unambiguously. Durations, random suffixes and
 * absolute paths do not belong in ids; parsers strip what they know of.
 */
const SEP = '::';

function clean(part: string): string {
  return part.replace(/\s+/g, ' ').trim().replaceAll(SEP, ': :');
}

export function testId(group: string, classname: string, name: string): string {
  return [clean(group), clean(classname), clean(name)].join(SEP);
}

export function groupOfTestId(id: string): string {
  const i = id.indexOf(SEP);
  return i < 0 ? id : id.slice(0, i);
}

/**
 * Keeps duplicate names within one group apart: the second `a::b::c` becomes `a::b::c #2`.
 * Returns ids in input order.
 */
export function disambiguate(ids: string[]): string[] {
  const seen = new Map<string, number>();
  return ids.map((id) => {
    const n = (seen.get(id) ?? 0) + 1;
    seen.set(id, n);
    return n === 1 ? id : `${id} #${n}`;
  });
}

/**
 * Names parsers give the failure of something that is not a test (a test file that failed to
 * load, a package that failed to build). They make a failure visible in a run, but they are never
 * expected tests: they exist only when something breaks, so expecting them would make a change
 * that fixes the break look like it lost a test.
 */
export const FILE_LOAD_FAILURE = '(file failed to load)';
export const BUILD_FAILURE = '[build failed]';

export function isSyntheticFailure(id: string): boolean {
  return id.endsWith(`::${FILE_LOAD_FAILURE}`) || id.endsWith(`::${BUILD_FAILURE}`);
}
