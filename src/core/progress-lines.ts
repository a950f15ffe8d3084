/**
 * Progress as plain lines, the same in a terminal without a TTY and in an Actions log: one line
 * per event worth a line. The CLI's bar and the Action's log both take their text from here.
 * Pure.
 */
import type { ConfigurationDoneEvent, EvaluationEvent } from './evaluation-event.ts';

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)}s`;

/** `  api+web (rerun 1): pass 12/12 3.4s` — one finished configuration. */
export function configurationDoneLine(e: ConfigurationDoneEvent): string {
  const what =
    e.outcome === 'error'
      ? 'infrastructure error'
      : e.outcome === 'unjudged'
        ? 'ran (judged with the all-base run, which this evaluation does not run)'
        : `${e.outcome} ${e.passed}/${e.total}`;
  const rerun = e.attempt > 0 ? ` (rerun ${e.attempt})` : '';
  return `  ${e.id}${rerun}: ${what} ${e.cached ? 'cached' : seconds(e.durationMs)}`;
}

/** The line for an event, or undefined for events that get none (starts, resolved refs). */
export function progressLine(e: EvaluationEvent): string | undefined {
  switch (e.type) {
    case 'plan':
      return `tandem: ${e.configurations.length} configuration(s), matrix ${e.mode}`;
    case 'state-ready':
      return `  ${e.repo} ${e.state} at ${e.sha.slice(0, 12)}`;
    case 'prepare-done':
      return `  prepared ${e.repo} (${e.reused ? 'reused' : seconds(e.durationMs)})`;
    case 'configuration-done':
      return configurationDoneLine(e);
    case 'log':
      return `  ${e.level}: ${e.message}`;
    default:
      return undefined;
  }
}
