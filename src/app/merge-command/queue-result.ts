/**
 * What one speculative evaluation tells the queue (issue 28), from where the evaluation corridor
 * ended: `pass` only for a resolved report; `flaky` when the report saw replicates differ and the
 * outcome is not resolved (re-run up to `queue.retries`, never an eviction on its own); `infra`
 * for everything that is not a verdict on the code (GitHub or the executor failing, an invalid
 * suite, a missing config): the queue runs it again and never evicts for it.
 */

import type { Report } from '../../core/report.schema.ts';
import type { EvaluationResult } from '../../core/set-queue/queue-state.ts';

/** The result, and the App's own words for an eviction (a conflict, the set that changed). */
export interface QueueRunResult {
  result: EvaluationResult;
  note?: string;
}

/**
 * The configurations that failed where the gate looks: the full one (every member on its
 * speculative base). The base and partial configurations fail by design for a jointly necessary
 * change, so they never count against an item.
 */
export function failedConfigurations(report: Report): string[] {
  return report.configurations.filter((c) => c.outcome !== 'pass' && c.role === 'full').map((c) => c.id);
}

export function resultOfReport(report: Report, diagnostic: boolean): QueueRunResult {
  if (report.outcome === 'error')
    return { result: { outcome: 'infra' }, note: report.invalidSuite?.message ?? report.summary };
  const pass = report.outcome === 'resolved';
  if (diagnostic) return { result: { outcome: pass ? 'pass' : 'fail', passesAlone: pass } };
  if (pass) return { result: { outcome: 'pass' } };
  const failed = failedConfigurations(report);
  if (report.flaky.length > 0) return { result: { outcome: 'flaky', failedConfigurations: failed } };
  return { result: { outcome: 'fail', failedConfigurations: failed } };
}
