/**
 * `report/report-view.ts` is split by concern (the model, the matrix, the tests, the verdict's
 * headline, the targets): each part stays short, and what callers import from `report-view.ts`
 * is unchanged.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import * as view from '../../src/report/report-view.ts';

const REPORT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../src/report');

describe('the report view, split by concern', () => {
  it('keeps every part under 250 lines', () => {
    const parts = readdirSync(REPORT).filter((f) => /^report-view.*\.ts$/.test(f));
    expect(parts.length).toBeGreaterThan(1);
    const long = parts
      .map((f) => [f, readFileSync(path.join(REPORT, f), 'utf8').split('\n').length] as const)
      .filter(([, n]) => n > 250);
    expect(long).toEqual([]);
  });

  it('exports to its callers what it always did', () => {
    expect(Object.keys(view).sort()).toEqual(
      [
        'MATRIX_LISTED',
        'MAX_FAILING_LISTED',
        'MESSAGE_LINES',
        'REPO_ROWS_LISTED',
        'buildReportView',
        'formatDuration',
        'invalidSuiteView',
        'isFullSha',
        'matrixView',
        'readableTestName',
        'shortSha',
        'targetView',
        'testCountsView',
        'verdictView',
      ].sort(),
    );
  });
});
