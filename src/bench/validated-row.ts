/**
 * What `bench validate` writes: the validated instance as a portable row (the suite, its folder
 * and local repository URLs relative to the output file, so the folder can move), with the
 * audit of its validation; the lists in the dataset's own test names; where rejections go.
 */
import path from 'node:path';
import type { DroppedTest, ListDerivation } from '../core/bench-derive-lists.ts';
import type { BenchInstance } from '../core/bench-instance.schema.ts';
import { datasetNameOf, type NamedGroup } from '../core/dataset-names.ts';
import type { LoadedInstance } from './instances-file.ts';

/** What validation concluded about an instance it kept. */
export interface ValidatedInstance {
  instance: BenchInstance;
  flaky: Array<{ id: string; statuses: string[] }>;
  derived: boolean;
  dropped: DroppedTest[];
  matrixFlaky: Array<{ id: string; statuses: string[]; configurations: string[] }>;
}

/** `validated.jsonl` → `validated.rejected.jsonl`: two validations in one folder keep apart. */
export function rejectedFileFor(outFile: string): string {
  const ext = path.extname(outFile);
  return path.join(path.dirname(outFile), `${path.basename(outFile, ext)}.rejected${ext || '.jsonl'}`);
}

/** First occurrence of each key, in order. */
function uniqueBy<T>(xs: readonly T[], key: (x: T) => string): T[] {
  const seen = new Set<string>();
  return xs.filter((x) => {
    const k = key(x);
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

/**
 * The derivation with every id in the dataset's form (`<group>::x` → `x` for mapped groups).
 * Several groups reporting one name give it once (they agree on its status: see
 * core/shared-dataset-names.ts), so each list is a set; a name in FAIL_TO_PASS is never also in
 * PASS_TO_PASS (a given list holding both keeps it where it must newly pass).
 */
export function publishedLists(d: ListDerivation, groups: readonly NamedGroup[]): ListDerivation {
  const n = (id: string) => datasetNameOf(id, groups);
  const names = (ids: string[]) => uniqueBy(ids.map(n), (x) => x);
  const failToPass = names(d.failToPass);
  const f2p = new Set(failToPass);
  return {
    ...d,
    failToPass,
    passToPass: names(d.passToPass).filter((x) => !f2p.has(x)),
    flaky: uniqueBy(
      d.flaky.map((f) => ({ ...f, id: n(f.id) })),
      (f) => f.id,
    ),
    failingInGold: names(d.failingInGold),
    timedOutInGold: names(d.timedOutInGold),
    dropped: uniqueBy(
      d.dropped.map((t) => ({ ...t, id: n(t.id) })),
      (t) => t.id,
    ),
  };
}

/** A local path (absolute after loading) relative to `outDir`; a remote URL as it is. */
function portable(url: string, outDir: string): string {
  if (!path.isAbsolute(url)) return url;
  return path.relative(outDir, url) || '.';
}

/** The instances file a loaded row came from (`file:line` or `file: [index]`). */
function sourceFile(source: string): string {
  return source.replace(/(:\d+|: \[\d+\])$/, '');
}

export function validatedRow(l: LoadedInstance, v: ValidatedInstance, runs: number, outDir: string) {
  const inline = typeof v.instance.suite !== 'string';
  const suite = inline
    ? v.instance.suite
    : path.relative(outDir, path.resolve(path.dirname(sourceFile(l.source)), v.instance.suite as string));
  const suiteDir = path.relative(outDir, l.suiteDir);
  const { suite_dir: _given, ...rest } = v.instance;
  return {
    ...rest,
    repos: rest.repos.map((r) => ({ ...r, url: portable(r.url, outDir) })),
    context: rest.context.map((r) => ({ ...r, url: portable(r.url, outDir) })),
    suite,
    ...(inline && suiteDir !== '' ? { suite_dir: suiteDir } : {}),
    metadata: {
      ...v.instance.metadata,
      validation: {
        runs,
        lists: v.derived ? 'derived' : 'given',
        flaky: v.flaky,
        /** Every test left out of the lists, and why. */
        dropped: v.dropped,
        ...(v.matrixFlaky.length ? { matrix_flaky: v.matrixFlaky } : {}),
      },
    },
  };
}
