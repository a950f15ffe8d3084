/**
 * Flaky tests found from the matrix itself: configurations that hold the same state of a test
 * group's repository (and of the producers wired into it) run that group's tests on the same
 * code, so they are repeat runs for free; a test whose status differs between them is flaky.
 * A group's tests are taken to depend on its repository and what is wired into it: a group that
 * reads other repositories directly makes cross-repository differences look flaky, so the result
 * is reported beside the verdict, never used to grade. Pure.
 */
import type { NamedGroup } from './dataset-names.ts';
import { repoKey } from './repo-name.ts';
import type { ConfigurationRun } from './run.schema.ts';

export interface MatrixFlakyTest {
  id: string;
  /** One status per run compared, in the order of `configurations`. */
  statuses: string[];
  configurations: string[];
}

export function matrixFlaky(
  runs: readonly ConfigurationRun[],
  groups: readonly NamedGroup[],
  targets: readonly string[],
  wiring: ReadonlyArray<{ into: string; repo: string }> = [],
): MatrixFlakyTest[] {
  const isTarget = new Set(targets.map(repoKey));
  const producers = (repo: string, seen = new Set<string>()): string[] => {
    seen.add(repoKey(repo));
    for (const w of wiring)
      if (repoKey(w.into) === repoKey(repo) && !seen.has(repoKey(w.repo))) producers(w.repo, seen);
    return [...seen];
  };
  const out: MatrixFlakyTest[] = [];
  for (const g of groups) {
    if (!g.repo || !isTarget.has(repoKey(g.repo))) continue;
    const depends = producers(g.repo).filter((r) => isTarget.has(r));
    const classes = new Map<string, Array<{ label: string; run: ConfigurationRun }>>();
    for (const run of runs) {
      if (run.infraError) continue;
      const group = run.groups.find((x) => x.name === g.name);
      if (!group || group.status !== 'reported') continue;
      const applied = new Set(run.applied.map(repoKey));
      const key = depends.map((r) => (applied.has(r) ? `${r}@head` : `${r}@base`)).join(',');
      const label = run.attempt ? `${run.id}#${run.attempt}` : run.id;
      classes.set(key, [...(classes.get(key) ?? []), { label, run }]);
    }
    for (const members of classes.values()) {
      if (members.length < 2) continue;
      const ids = new Set(
        members.flatMap((m) => m.run.groups.find((x) => x.name === g.name)!.tests.map((t) => t.id)),
      );
      for (const id of [...ids].sort()) {
        const statuses = members.map(
          (m) =>
            m.run.groups.find((x) => x.name === g.name)!.tests.find((t) => t.id === id)?.status ?? 'missing',
        );
        if (new Set(statuses).size > 1)
          out.push({ id, statuses, configurations: members.map((m) => m.label) });
      }
    }
  }
  return out;
}
