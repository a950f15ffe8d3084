import type { Report } from '../core/report.schema.ts';

export const EXIT = { resolved: 0, unresolved: 1, badInput: 2, infra: 3, interrupted: 130 } as const;

export function exitCodeFor(report: Report): number {
  // The suite is the evaluator's input: its mistake is bad input, not infrastructure.
  if (report.invalidSuite) return EXIT.badInput;
  if (report.outcome === 'error') return EXIT.infra;
  return report.outcome === 'resolved' ? EXIT.resolved : EXIT.unresolved;
}
