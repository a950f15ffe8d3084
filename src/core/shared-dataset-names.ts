/**
 * One dataset name reported by several test groups (dayjs runs one test file under several
 * time-zone groups, each mapping it to the same `test/x.test.js`) is judged on all of them: in
 * every run, each occurrence takes the worst status any group gave the name there, so a name
 * passes only if every group that reports it passes it (SWE-bench's harness: any failing
 * occurrence fails the test). A group that reports the name in some run but not in this one
 * counts as failing it there, and holds the name in this run too (as failed, saying so). Which group a published name is matched to then never changes a
 * verdict, whatever the order of the suite's groups.
 *
 * Pure. Ids are `<group>::<dataset name>` for the mapped groups named in `mappedGroups`.
 */
import type { ConfigurationRun, TestResult, TestStatus } from './run.schema.ts';

const SEP = '::';

const RANK: Record<TestStatus, number> = { skipped: 0, passed: 1, error: 2, failed: 3 };

/**
 * Several results under one name within a group: the worst wins (a file fails when any test
 * fails; a skipped test beside passing ones does not fail it, as jest reports the file).
 */
export function worseStatus(a: TestStatus | undefined, b: TestStatus): TestStatus {
  return a === undefined || RANK[b] > RANK[a] ? b : a;
}

/** Across groups a name passes only where every group passed it: a skip there is not a pass. */
const ACROSS: Record<TestStatus, number> = { passed: 0, skipped: 1, error: 2, failed: 3 };

function worseAcross(a: TestStatus | undefined, b: TestStatus): TestStatus {
  return a === undefined || ACROSS[b] > ACROSS[a] ? b : a;
}

interface Worst {
  status: TestStatus;
  message?: string;
}

/** Dataset name → the mapped groups that report it in any run, for names more than one reports. */
function sharedNames(runs: readonly ConfigurationRun[], mappedGroups: ReadonlySet<string>) {
  const groupsOf = new Map<string, Set<string>>();
  for (const r of runs) {
    for (const g of r.groups) {
      if (!mappedGroups.has(g.name)) continue;
      for (const t of g.tests) {
        const name = t.id.slice(g.name.length + SEP.length);
        const set = groupsOf.get(name) ?? new Set<string>();
        set.add(g.name);
        groupsOf.set(name, set);
      }
    }
  }
  return new Map([...groupsOf].filter(([, set]) => set.size > 1));
}

/** In one run: per shared name, the worst status over every group that reports it anywhere. */
function worstIn(run: ConfigurationRun, shared: ReadonlyMap<string, ReadonlySet<string>>) {
  const worst = new Map<string, Worst>();
  const reportedBy = new Map<string, Set<string>>();
  const take = (name: string, status: TestStatus, message: string | undefined) => {
    const prev = worst.get(name);
    if (worseAcross(prev?.status, status) === prev?.status) return;
    worst.set(name, { status, ...(message !== undefined ? { message } : {}) });
  };
  // By group name, not suite order: the message kept must not depend on the order either.
  const byName = [...run.groups].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const g of byName) {
    for (const t of g.tests) {
      const name = t.id.slice(g.name.length + SEP.length);
      if (!shared.get(name)?.has(g.name)) continue;
      reportedBy.set(name, (reportedBy.get(name) ?? new Set()).add(g.name));
      const why = t.message ?? (t.status === 'passed' ? undefined : t.status);
      take(name, t.status, why !== undefined ? `in test group "${g.name}": ${why}` : undefined);
    }
  }
  for (const [name, groups] of shared) {
    const seen = reportedBy.get(name);
    if (!seen) continue;
    for (const group of [...groups].sort()) {
      if (!seen.has(group)) take(name, 'failed', `not reported by test group "${group}" in this run`);
    }
  }
  return worst;
}

/** Runs in which every occurrence of a name several mapped groups report has their worst status. */
export function judgeSharedNames(
  runs: readonly ConfigurationRun[],
  mappedGroups: ReadonlySet<string>,
): ConfigurationRun[] {
  const shared = sharedNames(runs, mappedGroups);
  if (shared.size === 0) return [...runs];
  return runs.map((r) => {
    const worst = worstIn(r, shared);
    const as = (id: string, w: Worst): TestResult => ({
      id,
      status: w.status,
      ...(w.message !== undefined ? { message: w.message } : {}),
    });
    return {
      ...r,
      groups: r.groups.map((g) => {
        if (!mappedGroups.has(g.name)) return g;
        const tests = g.tests.map((t): TestResult => {
          const w = worst.get(t.id.slice(g.name.length + SEP.length));
          return w ? as(t.id, w) : t;
        });
        // A group that reports the name elsewhere but not here holds it too: every group agrees.
        const have = new Set(tests.map((t) => t.id));
        for (const [name, w] of worst) {
          const id = `${g.name}${SEP}${name}`;
          if (shared.get(name)?.has(g.name) && !have.has(id)) tests.push(as(id, w));
        }
        return { ...g, tests };
      }),
    };
  });
}
