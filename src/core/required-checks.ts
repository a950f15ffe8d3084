/**
 * Whether a commit passes the checks its base branch requires, judged the way GitHub's merge
 * button judges them: each required context is satisfied by the latest check run of that name
 * or, failing that, by the commit status of that context. A check run passes when it completed
 * with `success`, `neutral` or `skipped` (GitHub counts the last two as passing); a status when
 * it is `success`. Nothing reported yet is "expected", as GitHub says. Pure.
 */

export interface CheckRunState {
  id: number;
  name: string;
  status: string;
  conclusion: string | null;
}

export interface CommitStatusState {
  context: string;
  state: string;
}

export type RequiredCheckState = 'passing' | 'pending' | 'failing' | 'expected';

export interface RequiredCheck {
  context: string;
  state: RequiredCheckState;
  /** GitHub's word for it: the conclusion or status state (`failure`, `in_progress`, …). */
  detail: string;
}

const PASSING_CONCLUSIONS = new Set(['success', 'neutral', 'skipped']);

function judgeRun(run: CheckRunState): RequiredCheck {
  if (run.status !== 'completed') return { context: run.name, state: 'pending', detail: run.status };
  const conclusion = run.conclusion ?? 'none';
  return {
    context: run.name,
    state: PASSING_CONCLUSIONS.has(conclusion) ? 'passing' : 'failing',
    detail: conclusion,
  };
}

function judgeStatus(s: CommitStatusState): RequiredCheck {
  const state = s.state === 'success' ? 'passing' : s.state === 'pending' ? 'pending' : 'failing';
  return { context: s.context, state, detail: s.state };
}

/** Each required context judged, in the order required; `pass` when every one passes. */
export function judgeRequiredChecks(
  required: readonly string[],
  runs: readonly CheckRunState[],
  statuses: readonly CommitStatusState[],
): { pass: boolean; checks: RequiredCheck[] } {
  const checks = [...new Set(required)].map((context): RequiredCheck => {
    // A re-run adds a check run of the same name: the newest one counts.
    const run = runs.filter((r) => r.name === context).sort((a, b) => b.id - a.id)[0];
    if (run) return judgeRun(run);
    const status = statuses.find((s) => s.context === context);
    if (status) return judgeStatus(status);
    return { context, state: 'expected', detail: 'not reported' };
  });
  return { pass: checks.every((c) => c.state === 'passing'), checks };
}

/** The first check that is not passing, in words: `"ci" is failing (failure)`. */
export function describeBlockingCheck(checks: readonly RequiredCheck[]): string | undefined {
  const c = checks.find((x) => x.state !== 'passing');
  if (!c) return undefined;
  const word = { pending: 'still running', failing: 'failing', expected: 'expected', passing: 'passing' }[
    c.state
  ];
  return c.state === 'expected'
    ? `required check "${c.context}" has not reported`
    : `required check "${c.context}" is ${word} (${c.detail})`;
}
