/**
 * The grading-fidelity table `npm run bench` prints: for every generated dataset (jest nested
 * describes, jest array titles, jest leaf titles, mocha, pytest parametrized, go subtests, one
 * file under several groups), the lists `bench validate` derives equal the lists the generator
 * intended, name for name, and the table says so.
 */
import { describe, expect, it } from 'vitest';
import { FIDELITY_DATASETS } from '../../perf/fidelity-datasets.ts';
import { gradingFidelity, printGradingFidelity } from '../../perf/grading-fidelity.ts';

describe('grading fidelity on generated datasets', () => {
  const rows = gradingFidelity();

  it.each(FIDELITY_DATASETS.map((d) => d.name))('%s: derived lists equal the intended ones', (name) => {
    const row = rows.find((r) => r.dataset === name)!;
    expect(row.derived.failToPass.slice().sort()).toEqual(row.intended.failToPass.slice().sort());
    expect(row.derived.passToPass.slice().sort()).toEqual(row.intended.passToPass.slice().sort());
    expect(row.exact).toBe(true);
  });

  it('prints one row per dataset and the count of exact ones', () => {
    const table = printGradingFidelity(rows);
    expect(table.split('\n')).toHaveLength(FIDELITY_DATASETS.length + 3);
    expect(table).toMatch(/one file under several groups\s+jest-file\s+1\/1\s+1\/1\s+yes/);
    expect(table.endsWith(`${FIDELITY_DATASETS.length}/${FIDELITY_DATASETS.length} datasets exact`)).toBe(
      true,
    );
  });

  it('says "no" and shows both sides when a derived list differs', () => {
    const wrong = { ...FIDELITY_DATASETS[0]!, intended: { failToPass: ['x'], passToPass: [] } };
    const [row] = gradingFidelity([wrong]);
    expect(row!.exact).toBe(false);
    expect(printGradingFidelity([row!])).toContain('intended {"failToPass":["x"],"passToPass":[]}');
  });
});
