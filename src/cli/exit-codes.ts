import type { Report } from '../core/report.schema.ts';

export const EXIT = { resolved: 0, unresolved: 1, badInput: 2, infra: 3, interrupted: 130 } as const;

export function exitCodeFor(report: Report): number {
  if (report.outcome === 'error') return EXIT.infra;
  return report.outcome === 'resolved' ? EXIT.resolved : EXIT.unresolved;
}
