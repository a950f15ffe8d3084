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
 * load, a package that failed to build, a module pytest could not collect, a TAP stream that
 * ended before its plan). They make a failure visible in a run, but they are never expected
 * tests: they exist only when something breaks, so expecting them would make a change that fixes
 * the break look like it lost a test. What they do say: the tests they hold (their *scope*) could
 * not run (core/unrunnable-tests.ts).
 */
export const FILE_LOAD_FAILURE = '(file failed to load)';
export const BUILD_FAILURE = '[build failed]';
export const COLLECTION_FAILURE = '(collection error)';
export const INCOMPLETE_STREAM = '(stream ended without a plan)';

interface SyntheticKind {
  /** The reason as reports say it. */
  label: string;
  /** What may follow the scope's classname in the id of a test it holds. */
  inside: readonly string[];
}

const SYNTHETIC: Readonly<Record<string, SyntheticKind>> = {
  // A go package: its own tests only (`x/y` is another package than `x`).
  [BUILD_FAILURE]: { label: 'build failed', inside: [SEP] },
  // A jest/vitest file: its tests, inside describe blocks too (`file > describe`).
  [FILE_LOAD_FAILURE]: { label: 'file failed to load', inside: [SEP, ' > '] },
  // A pytest module (`tests.test_x`): its functions, and its classes (`tests.test_x.TestK`).
  [COLLECTION_FAILURE]: { label: 'collection error', inside: [SEP, '.'] },
  // Written with an empty classname: the whole group.
  [INCOMPLETE_STREAM]: { label: 'stream ended without a plan', inside: [SEP] },
};

/** Every label a synthetic failure can give, for texts that may show only Tandem's own words. */
export const SYNTHETIC_LABELS: readonly string[] = Object.values(SYNTHETIC).map((k) => k.label);

function syntheticName(id: string): string | undefined {
  return Object.keys(SYNTHETIC).find((name) => id.endsWith(`${SEP}${name}`));
}

export function isSyntheticFailure(id: string): boolean {
  return syntheticName(id) !== undefined;
}

/** "build failed", "collection error"…: why a synthetic failure is there; undefined for a real test. */
export function syntheticFailureLabel(id: string): string | undefined {
  const name = syntheticName(id);
  return name === undefined ? undefined : SYNTHETIC[name]!.label;
}

/**
 * Whether `test` is one of the tests the synthetic failure `synthetic` kept from running: same
 * group, and its classname is the failure's package/file/module or lies inside it. A failure with
 * an empty classname holds its whole group.
 */
export function heldBySyntheticFailure(synthetic: string, test: string): boolean {
  const name = syntheticName(synthetic);
  if (name === undefined || isSyntheticFailure(test)) return false;
  const scope = synthetic.slice(0, -(SEP.length + name.length));
  const group = groupOfTestId(synthetic);
  if (groupOfTestId(test) !== group) return false;
  if (scope === group || scope === `${group}${SEP}`) return true;
  return SYNTHETIC[name]!.inside.some((next) => test.startsWith(`${scope}${next}`));
}
