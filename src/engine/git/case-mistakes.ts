/**
 * A ref or a patch the user wrote in their own case file that does not resolve is their mistake,
 * not Tandem's machinery: `tandem eval` says it as bad input naming the field (exit 2), in one
 * line. The App and the Action build cases from pull requests, where the same failure (a head
 * that vanished, a patch that no longer applies) stays an infrastructure error; they never ask.
 * A fetch or clone that fails is infrastructure everywhere.
 */
import { type CaseFile, isPatchTarget } from '../../core/case.schema.ts';
import { InputError } from '../../core/errors.ts';
import type { InfraErrorInfo } from '../../core/run.schema.ts';
import type { MaterializedRepo } from './workspace-states.ts';

/** Failures only the case's own refs and patches cause. */
const CASE_KINDS = new Set<InfraErrorInfo['kind']>(['unknown-ref', 'patch-failed']);

/** Failed files named at most, so the line stays one readable line. */
const MAX_FILES = 5;

/**
 * The first state of the case that failed for the case's own reason, as an InputError naming
 * the field (`targets[0].head`), or undefined when every state resolved or failed otherwise.
 */
export function caseMistake(
  c: Pick<CaseFile, 'targets' | 'context'>,
  repos: { targets: MaterializedRepo[]; context: MaterializedRepo[] },
): InputError | undefined {
  for (const [i, t] of c.targets.entries()) {
    const error = repos.targets[i]?.error;
    if (!error || !CASE_KINDS.has(error.kind)) continue;
    // Without a base state, the base failed; with it, the head did.
    if (!repos.targets[i]!.base) return mistake(`targets[${i}].base`, error.message);
    if (isPatchTarget(t)) {
      const files = error.files ?? [];
      const named = files.length
        ? ` (failed files: ${files.slice(0, MAX_FILES).join(', ')}${files.length > MAX_FILES ? ', …' : ''})`
        : '';
      return mistake(`targets[${i}].patch`, `${t.patch} does not apply to ${t.repo} at ${t.base}${named}`);
    }
    return mistake(`targets[${i}].head`, error.message);
  }
  for (const [i] of c.context.entries()) {
    const error = repos.context[i]?.error;
    if (error && CASE_KINDS.has(error.kind)) return mistake(`context[${i}].ref`, error.message);
  }
  return undefined;
}

function mistake(field: string, message: string): InputError {
  return new InputError(`field "${field}": ${message}`, undefined, field);
}
