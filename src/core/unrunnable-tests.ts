/**
 * Tests a run could not run: a group whose tests never started (it did not build, collect or
 * load, or it crashed first) says nothing about them, and neither passes them nor names them.
 * Pure; the engine asks `brokenGroupReason` when it reads a group's results, and
 * core/expected-tests.ts asks `couldNotRun` of the all-base run (docs/design.md "Verdicts").
 */
import type { ConfigurationRun, TestResult } from './run.schema.ts';
import {
  groupOfTestId,
  heldBySyntheticFailure,
  isSyntheticFailure,
  SYNTHETIC_LABELS,
  syntheticFailureLabel,
} from './test-id.ts';

const SCOPES_NAMED = 3;

/** `a::b::c` → `b` (the package, file or module a synthetic failure is about). */
function scopeOf(id: string): string {
  const rest = id.slice(groupOfTestId(id).length + 2);
  const cut = rest.lastIndexOf('::');
  return cut < 0 ? '' : rest.slice(0, cut);
}

/**
 * Why a group that reported no real test result and exited non-zero failed as a whole ("build
 * failed (x/lib)", "collection error (tests.test_x)"); undefined when it ran a test, or exited 0.
 * Its runner never got to the tests, so the group cannot pass, whatever else its file says.
 */
export function brokenGroupReason(tests: readonly TestResult[], exitCode: number | null): string | undefined {
  if (exitCode === 0 || tests.some((t) => !isSyntheticFailure(t.id))) return undefined;
  const exit = exitCode === null ? 'was killed' : `exited ${exitCode}`;
  if (tests.length === 0) return `reported no test result and ${exit}`;
  const labels = [...new Set(tests.map((t) => syntheticFailureLabel(t.id)!))];
  const scopes = [...new Set(tests.map((t) => scopeOf(t.id)).filter((s) => s !== ''))];
  const named =
    scopes.length === 0
      ? ''
      : ` (${scopes.slice(0, SCOPES_NAMED).join(', ')}${scopes.length > SCOPES_NAMED ? ', …' : ''})`;
  return `${labels.join(', ')}${named}: no test ran, and the group ${exit}`;
}

/**
 * The first label of a `brokenGroupReason` ("build failed"), from Tandem's words only: the rest
 * of a reason names packages or files the run printed.
 */
export function brokenLabel(reason: string | undefined): string {
  return SYNTHETIC_LABELS.find((l) => reason?.startsWith(l)) ?? 'ran no test';
}

/**
 * Whether `run` could not have reported test `id`: its group failed as a whole there (crashed,
 * timed out, ran out of memory, did not run, or ran no test at all), or the run reported a build,
 * load or collection failure of the package, file or module that holds it.
 */
export function couldNotRun(run: ConfigurationRun): (id: string) => boolean {
  const failedGroups = new Set(run.groups.filter((g) => g.status !== 'reported').map((g) => g.name));
  const synthetic = run.groups.flatMap((g) => g.tests.map((t) => t.id).filter(isSyntheticFailure));
  return (id) => failedGroups.has(groupOfTestId(id)) || synthetic.some((s) => heldBySyntheticFailure(s, id));
}
