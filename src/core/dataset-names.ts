/**
 * How a benchmark dataset writes test names, per runner, and Tandem's test ids mapped into that
 * form (a suite sets it per test group, `tests[].dataset_names`), so published FAIL_TO_PASS /
 * PASS_TO_PASS lists are matched as they are:
 *
 * - `jest`: `<file>` (file-level entry: fails when any test of the file fails or the file did
 *   not load) and `<file>:<describe titles and title, space-joined>` (jest's full name); the file
 *   relative to the repository.
 * - `jest-leaf`: as Multi-SWE-bench's jest harness publishes them: `<file>` and `<file>:<title>`,
 *   without the describe titles (tests sharing a leaf title in one file share the name).
 * - `jest-file`: only the file-level entries `<file>` (lists that hold nothing finer).
 * - `mocha`: `<classname> <name>` (JUnit reporters write the suite titles as classname).
 * - `pytest`: `<path>::<Class>::<name>`, from JUnit's dotted classname (`tests.test_x.TestY`):
 *   the parts before the first capitalised one are the module path.
 * - `go`: the test name (`TestX/sub`).
 * - `tandem` (default): Tandem's own `<group>::<classname>::<name>`.
 *
 * Pure. Mapped ids keep their group in front (`<group>::<dataset name>`) so per-repository
 * metrics still know where a test belongs; `datasetNameOf` removes it again for the lists.
 */
import { z } from 'zod';
import type { ConfigurationRun, GroupRun, TestResult } from './run.schema.ts';
import { judgeSharedNames, worseStatus } from './shared-dataset-names.ts';
import { FILE_LOAD_FAILURE } from './test-id.ts';

export const datasetNamesSchema = z.enum([
  'tandem',
  'jest',
  'jest-leaf',
  'jest-file',
  'mocha',
  'pytest',
  'go',
]);
export type DatasetNames = z.infer<typeof datasetNamesSchema>;

/** The suite setting a message should point at. */
export const DATASET_NAMES_SETTING = 'dataset_names';

export interface NamedGroup {
  name: string;
  repo?: string;
  dataset_names?: DatasetNames;
}

const SEP = '::';

const mapped = (g: NamedGroup) => (g.dataset_names ?? 'tandem') !== 'tandem';

/** `<group>::<classname>::<name>` back into its parts (parts never hold `::`; see test-id.ts). */
function parts(id: string): { group: string; classname: string; name: string } {
  const [group = '', classname = '', ...rest] = id.split(SEP);
  return { group, classname, name: rest.join(SEP) };
}

/** `acme/api` → `api`: a repository's workspace folder, cut from workspace-relative paths. */
function folderOf(repo: string | undefined): string | undefined {
  return repo?.split('/').pop();
}

function repoRelative(file: string, repo: string | undefined): string {
  const folder = folderOf(repo);
  return folder && file.startsWith(`${folder}/`) ? file.slice(folder.length + 1) : file;
}

function pytestName(classname: string, name: string): string {
  if (/\.py$/.test(classname) || classname.includes('/')) return `${classname}${SEP}${name}`;
  const dotted = classname.split('.');
  const firstClass = dotted.findIndex((p) => /^[A-Z]/.test(p));
  const modules = firstClass < 0 ? dotted : dotted.slice(0, firstClass);
  const classes = firstClass < 0 ? [] : dotted.slice(firstClass);
  return [`${modules.join('/')}.py`, ...classes, name].join(SEP);
}

/** One test's names in the dataset's form: its own, and (jest) the file-level entry it belongs to. */
export function datasetNamesOf(
  style: DatasetNames,
  id: string,
  repo?: string,
): { name?: string; file?: string } {
  if (style === 'tandem') return { name: id };
  const { classname, name } = parts(id);
  switch (style) {
    case 'jest':
    case 'jest-leaf':
    case 'jest-file': {
      const [file = '', ...describes] = classname.split(' > ');
      const rel = repoRelative(file, repo);
      if (name === FILE_LOAD_FAILURE || style === 'jest-file') return { file: rel };
      const title = style === 'jest' ? [...describes, name].join(' ') : name;
      return { name: `${rel}:${title}`, file: rel };
    }
    case 'mocha':
      return { name: classname ? `${classname} ${name}` : name };
    case 'pytest':
      return { name: pytestName(classname, name) };
    case 'go':
      return { name };
  }
}

function mapGroup(g: GroupRun, style: DatasetNames, repo: string | undefined): GroupRun {
  if (style === 'tandem') return g;
  const byName = new Map<string, TestResult>();
  const put = (name: string, t: TestResult) => {
    const id = `${g.name}${SEP}${name}`;
    const prev = byName.get(id);
    const status = worseStatus(prev?.status, t.status);
    const message = prev?.status === status ? prev.message : t.message;
    byName.set(id, { id, status, ...(message !== undefined ? { message } : {}) });
  };
  for (const t of g.tests) {
    const n = datasetNamesOf(style, t.id.replace(/ #\d+$/, ''), repo);
    if (n.name !== undefined) put(n.name, t);
    if (n.file !== undefined) put(n.file, t);
  }
  return { ...g, tests: [...byName.values()] };
}

/**
 * Runs with every test id in its group's dataset form (`<group>::<dataset name>`); a name
 * several groups report has the worst of their statuses in each (shared-dataset-names.ts).
 */
export function mapRunsToDatasetNames(
  runs: readonly ConfigurationRun[],
  groups: readonly NamedGroup[],
): ConfigurationRun[] {
  const byName = new Map(groups.map((g) => [g.name, g]));
  if (!groups.some((g) => (g.dataset_names ?? 'tandem') !== 'tandem')) return [...runs];
  const mappedRuns = runs.map((r) => ({
    ...r,
    groups: r.groups.map((g) => {
      const spec = byName.get(g.name);
      return mapGroup(g, spec?.dataset_names ?? 'tandem', spec?.repo ?? g.repo);
    }),
  }));
  return judgeSharedNames(mappedRuns, new Set(groups.filter(mapped).map((g) => g.name)));
}

/** A mapped id back to the dataset's own name (`<group>::x` → `x`); Tandem ids stay whole. */
export function datasetNameOf(id: string, groups: readonly NamedGroup[]): string {
  const i = id.indexOf(SEP);
  const g = groups.find((x) => x.name === id.slice(0, i));
  return g && mapped(g) ? id.slice(i + SEP.length) : id;
}

export interface QualifiedLists {
  failToPass: string[];
  passToPass: string[];
  /** Listed names no run reported in any group. */
  unreported: string[];
}

/**
 * Published names → ids grading can match: a name is given a group that reported it (the
 * first in suite order; every group reporting it holds the same status, see
 * `mapRunsToDatasetNames`, so the choice never changes a verdict); a name no run reported keeps the first mapped group (or stays as
 * written when no group maps names), so it counts as missing, hence failed.
 */
export function qualifyLists(
  lists: { failToPass: string[]; passToPass: string[] },
  runs: readonly ConfigurationRun[],
  groups: readonly NamedGroup[],
): QualifiedLists {
  const seen = new Set(runs.flatMap((r) => r.groups.flatMap((g) => g.tests.map((t) => t.id))));
  const mappedGroups = groups.filter(mapped);
  const unreported: string[] = [];
  const qualify = (name: string) => {
    if (seen.has(name)) return name;
    const g = mappedGroups.find((x) => seen.has(`${x.name}${SEP}${name}`));
    if (g) return `${g.name}${SEP}${name}`;
    unreported.push(name);
    return mappedGroups[0] ? `${mappedGroups[0].name}${SEP}${name}` : name;
  };
  return {
    failToPass: lists.failToPass.map(qualify),
    passToPass: lists.passToPass.map(qualify),
    unreported,
  };
}

/**
 * When listed names are never reported: how many, two of them beside two names the runs did
 * report (in the dataset's form), and the setting that maps them — never a silent "0/852".
 */
export function unreportedNamesMessage(
  q: QualifiedLists,
  runs: readonly ConfigurationRun[],
  groups: readonly NamedGroup[],
): string | undefined {
  if (q.unreported.length === 0) return undefined;
  const listed = new Set([...q.failToPass, ...q.passToPass]);
  const reported = [
    ...new Set(runs.flatMap((r) => r.groups.flatMap((g) => g.tests.map((t) => t.id)))),
  ].filter((id) => !listed.has(id));
  const total = q.failToPass.length + q.passToPass.length;
  const side = (a: string[]) => (a.length ? a.map((s) => JSON.stringify(s)).join(', ') : '(none)');
  const setting = groups.filter(mapped).length
    ? groups
        .map((g, i) => (mapped(g) ? `tests[${i}].${DATASET_NAMES_SETTING}: ${g.dataset_names}` : undefined))
        .filter(Boolean)
        .join(', ')
    : `no test group sets ${DATASET_NAMES_SETTING}`;
  return (
    `${q.unreported.length} of ${total} listed test(s) were never reported. ` +
    `Listed: ${side(q.unreported.slice(0, 2))}; reported: ${side(reported.slice(0, 2).map((id) => datasetNameOf(id, groups)))}. ` +
    `The suite maps names with ${setting} (one of ${datasetNamesSchema.options.join(', ')}).`
  );
}
