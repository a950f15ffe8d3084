/**
 * Which matrix rows a reader sees. Up to MATRIX_ALL_ROWS configurations (three PRs) every row is
 * listed; beyond, only what says something: `base`, the configurations that did not do what a
 * jointly necessary change expects (a partial that passes, an error, one not run) and `full`.
 * The rest is one summary line ("…and 240 more partial configurations failed, as expected"), so
 * the matrix of eight PRs is a few rows, not 256.
 */
import type { MatrixRowView, ReportView } from './report-view.ts';

/** Up to this many rows, all are listed (the full matrix of three PRs). */
export const MATRIX_ALL_ROWS = 8;

export function selectMatrixRows(view: ReportView): ReportView {
  const rows = view.matrix;
  if (rows.length <= Math.min(MATRIX_ALL_ROWS, view.matrixCap)) return view;
  const telling = (r: MatrixRowView) => r.role === 'base' || !r.asExpected;
  const full = rows.filter((r) => r.role === 'full');
  const candidates = rows.filter((r) => r.role !== 'full' && telling(r));
  const listed = candidates.slice(0, Math.max(0, view.matrixCap - full.length));
  const shown = new Set([...listed, ...full]);
  const rest = rows.filter((r) => !shown.has(r));
  return {
    ...view,
    matrix: rows.filter((r) => shown.has(r)),
    folded: rest.filter((r) => r.asExpected).length,
    matrixMore: view.matrixMore + rest.filter((r) => !r.asExpected).length,
  };
}
