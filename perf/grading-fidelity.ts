/**
 * The grading-fidelity table of `npm run bench`: for each generated dataset
 * (perf/fidelity-datasets.ts), the result files its runner writes on base and with the gold
 * patch (two gold runs, as `bench validate --runs 2`) are parsed by Tandem's parsers, mapped into
 * the dataset's names and derived into FAIL_TO_PASS / PASS_TO_PASS exactly as `bench validate`
 * derives them; the table says whether those lists equal, name for name, the lists the
 * generator intended. Pure and in-process: well under a second.
 */
import { publishedLists } from '../src/bench/validated-row.ts';
import { deriveLists } from '../src/core/bench-derive-lists.ts';
import { mapRunsToDatasetNames, type NamedGroup } from '../src/core/dataset-names.ts';
import type { ConfigurationRun } from '../src/core/run.schema.ts';
import { parseResults } from '../src/engine/results/parsers/index.ts';
import { FIDELITY_DATASETS, type FidelityDataset, type Side } from './fidelity-datasets.ts';

export interface FidelityRow {
  dataset: string;
  form: string;
  derived: { failToPass: string[]; passToPass: string[] };
  intended: { failToPass: string[]; passToPass: string[] };
  exact: boolean;
  /** The derivation threw (a form the mapping does not know, …): not exact, and why. */
  error?: string;
}

function runOf(d: FidelityDataset, side: Side, attempt: number): ConfigurationRun {
  return {
    id: side === 'base' ? 'base' : 'full',
    applied: side === 'base' ? [] : [d.repo],
    attempt,
    setup: [],
    groups: d.groups.map((g) => ({
      name: g,
      repo: d.repo,
      status: 'reported' as const,
      exitCode: 0,
      durationMs: 1,
      tests: parseResults(d.format, d.output(side, g), g),
    })),
    cached: false,
    durationMs: 1,
  };
}

/** The same list, name for name and as many times (order aside). */
const same = (a: string[], b: string[]) => JSON.stringify([...a].sort()) === JSON.stringify([...b].sort());

export function gradingFidelity(datasets: readonly FidelityDataset[] = FIDELITY_DATASETS): FidelityRow[] {
  return datasets.map((d) => {
    try {
      return fidelityOf(d);
    } catch (err) {
      const none = { failToPass: [], passToPass: [] };
      return {
        dataset: d.name,
        form: d.form,
        derived: none,
        intended: d.intended,
        exact: false,
        error: String(err),
      };
    }
  });
}

function fidelityOf(d: FidelityDataset): FidelityRow {
  const groups: NamedGroup[] = d.groups.map((name) => ({ name, repo: d.repo, dataset_names: d.form }));
  const runs = mapRunsToDatasetNames([runOf(d, 'base', 0), runOf(d, 'gold', 0), runOf(d, 'gold', 1)], groups);
  const lists = publishedLists(deriveLists(runs), groups);
  const derived = { failToPass: lists.failToPass, passToPass: lists.passToPass };
  return {
    dataset: d.name,
    form: d.form,
    derived,
    intended: d.intended,
    exact: same(derived.failToPass, d.intended.failToPass) && same(derived.passToPass, d.intended.passToPass),
  };
}

export function printGradingFidelity(rows: readonly FidelityRow[]): string {
  const w = Math.max(...rows.map((r) => r.dataset.length), 'dataset'.length);
  const f = Math.max(...rows.map((r) => r.form.length), 'dataset_names'.length);
  const line = (a: string, b: string, c: string, d: string, e: string) =>
    `${a.padEnd(w)}  ${b.padEnd(f)}  ${c.padStart(9)}  ${d.padStart(9)}  ${e}`;
  const count = (r: FidelityRow, k: 'failToPass' | 'passToPass') =>
    `${r.derived[k].length}/${r.intended[k].length}`;
  const out = [
    'Grading fidelity (generated datasets: lists derived as `bench validate` does vs the lists the generator intended)',
    line('dataset', 'dataset_names', 'F2P', 'P2P', 'exact match'),
    ...rows.map((r) =>
      line(r.dataset, r.form, count(r, 'failToPass'), count(r, 'passToPass'), r.exact ? 'yes' : 'no'),
    ),
  ];
  for (const r of rows.filter((x) => !x.exact)) {
    const derived = r.error ? `failed: ${r.error}` : `derived ${JSON.stringify(r.derived)}`;
    out.push(`  ${r.dataset}: ${derived}; intended ${JSON.stringify(r.intended)}`);
  }
  out.push(`${rows.filter((r) => r.exact).length}/${rows.length} datasets exact`);
  return out.join('\n');
}

// `tsx perf/grading-fidelity.ts` prints the table alone.
if (import.meta.url === `file://${process.argv[1]}`) {
  process.stdout.write(`${printGradingFidelity(gradingFidelity())}\n`);
}
