import { describe, expect, it } from 'vitest';
import {
  cycleNote,
  evaluationRefusal,
  type LivePull,
  memberRefusal,
  mergeOutcome,
  mergePlan,
  mergeSequence,
  setDrift,
} from '../../src/core/merge-command-plan.ts';
import { describeBlockingCheck, judgeRequiredChecks } from '../../src/core/required-checks.ts';

const A = 'a'.repeat(40);
const B = 'b'.repeat(40);

describe('mergeSequence', () => {
  it('puts producers first by the merge order, ignoring case, and keeps the rest in their order', () => {
    const members = [
      { key: 'acme/web#3', headSha: A },
      { key: 'acme/api#1', headSha: A },
      { key: 'acme/docs#9', headSha: A },
      { key: 'acme/schema#2', headSha: A },
    ];
    expect(mergeSequence(members, ['Acme/Schema', 'acme/api']).map((m) => m.key)).toEqual([
      'acme/schema#2',
      'acme/api#1',
      'acme/web#3',
      'acme/docs#9',
    ]);
    expect(mergeSequence(members, []).map((m) => m.key)).toEqual(members.map((m) => m.key));
  });
});

describe('mergePlan', () => {
  const members = ['acme/api#1', 'acme/web#3', 'acme/schema#2'].map((key) => ({ key, headSha: A }));
  const links: Record<string, string[]> = { 'acme/api#1': ['acme/schema#2'], 'acme/web#3': ['acme/api#1'] };

  it('without merge_order, merges each PR after the PRs it links to', () => {
    const plan = mergePlan(members, [], (k) => links[k] ?? []);
    expect(plan.sequence.map((m) => m.key)).toEqual(['acme/schema#2', 'acme/api#1', 'acme/web#3']);
    expect(cycleNote(plan, [])).toBeUndefined();
  });

  it('merge_order ranks first; a cycle keeps the listed order and is named', () => {
    expect(mergePlan(members, ['acme/web'], (k) => links[k] ?? []).sequence[0]!.key).toBe('acme/web#3');
    const cyclic: Record<string, string[]> = { ...links, 'acme/schema#2': ['acme/web#3'] };
    const plan = mergePlan(members, [], (k) => cyclic[k] ?? []);
    expect(plan.sequence.map((m) => m.key)).toEqual(members.map((m) => m.key));
    expect(cycleNote(plan, [])).toBe(
      'the Depends-On links of acme/api#1, acme/web#3, acme/schema#2 form a cycle, so they are merged in the order the evaluation listed them',
    );
  });
});

describe('evaluationRefusal', () => {
  it('allows only a published, resolved evaluation', () => {
    expect(evaluationRefusal({ state: 'published', outcome: 'resolved' })).toBeUndefined();
    expect(evaluationRefusal(undefined)).toMatch(/not been evaluated/);
    expect(evaluationRefusal({ state: 'running', outcome: null })).toMatch(/under way/);
    expect(evaluationRefusal({ state: 'queued', outcome: null })).toMatch(/under way/);
    expect(evaluationRefusal({ state: 'failed', outcome: null })).toMatch(/without a verdict/);
    expect(evaluationRefusal({ state: 'published', outcome: 'unresolved' })).toBe(
      'the linked change is not resolved',
    );
    expect(evaluationRefusal({ state: 'published', outcome: 'error' })).toMatch(/infrastructure error/);
  });
});

describe('memberRefusal', () => {
  const m = { key: 'acme/api#1', headSha: A };
  const open: LivePull = { state: 'open', headSha: A, draft: false, mergeable: true };
  it('refuses a moved head, a closed, merged, draft or conflicting PR; GitHub still computing is fine', () => {
    expect(memberRefusal(m, open)).toBeUndefined();
    expect(memberRefusal(m, { ...open, mergeable: null })).toBeUndefined();
    expect(memberRefusal(m, { ...open, headSha: B })).toBe(
      'its head moved to bbbbbbb after the evaluation (of aaaaaaa): it must be evaluated again',
    );
    expect(memberRefusal(m, { ...open, state: 'closed' })).toBe('it is closed');
    expect(memberRefusal(m, { ...open, state: 'merged' })).toMatch(/already merged/);
    expect(memberRefusal(m, { ...open, draft: true })).toBe('it is a draft');
    expect(memberRefusal(m, { ...open, mergeable: false })).toMatch(/conflicts/);
    expect(memberRefusal(m, undefined)).toMatch(/not found/);
  });
  it('refuses a member retargeted since its evaluation; a row without the base ref is not judged on it', () => {
    const onMain = { ...m, baseRef: 'main' };
    expect(memberRefusal(onMain, { ...open, baseRef: 'main' })).toBeUndefined();
    expect(memberRefusal(onMain, { ...open, baseRef: 'release' })).toBe(
      'it now targets release but was evaluated on main: it must be evaluated again',
    );
    expect(memberRefusal(m, { ...open, baseRef: 'release' })).toBeUndefined();
  });
});

describe('setDrift and mergeOutcome', () => {
  it('names PRs that joined after the evaluation', () => {
    expect(setDrift(['acme/api#1'], ['acme/api#1'])).toBeUndefined();
    expect(setDrift(['acme/api#1', 'acme/web#2'], ['acme/api#1'])).toBeUndefined();
    expect(setDrift(['acme/api#1'], ['acme/api#1', 'acme/web#2'])).toMatch(/^acme\/web#2 joined/);
  });

  it('tells merged, refused and half-merged apart', () => {
    const step = (result: 'merged' | 'refused' | 'not-attempted') => ({ key: 'k', headSha: A, result });
    expect(mergeOutcome([step('merged'), step('merged')])).toBe('merged');
    expect(mergeOutcome([step('refused'), step('not-attempted')])).toBe('refused');
    expect(mergeOutcome([step('merged'), step('refused'), step('not-attempted')])).toBe('partial');
  });
});

describe('judgeRequiredChecks', () => {
  const run = (id: number, name: string, status: string, conclusion: string | null = null) => ({
    id,
    name,
    status,
    conclusion,
  });
  it('passes with nothing required, and with success, neutral or skipped runs and success statuses', () => {
    expect(judgeRequiredChecks([], [], []).pass).toBe(true);
    const r = judgeRequiredChecks(
      ['Tandem', 'lint', 'ci/legacy', 'docs'],
      [run(1, 'Tandem', 'completed', 'success'), run(2, 'lint', 'completed', 'neutral')],
      [
        { context: 'ci/legacy', state: 'success' },
        { context: 'docs', state: 'success' },
      ],
    );
    expect(r.pass).toBe(true);
  });

  it('judges the newest run of a name, and names the first blocking check', () => {
    const failing = judgeRequiredChecks(
      ['Tandem', 'ci'],
      [
        run(1, 'Tandem', 'completed', 'success'),
        run(2, 'ci', 'completed', 'success'),
        run(3, 'ci', 'completed', 'failure'),
      ],
      [],
    );
    expect(failing.pass).toBe(false);
    expect(describeBlockingCheck(failing.checks)).toBe('required check "ci" is failing (failure)');
    const pending = judgeRequiredChecks(['ci'], [run(4, 'ci', 'in_progress')], []);
    expect(describeBlockingCheck(pending.checks)).toBe('required check "ci" is still running (in_progress)');
    const missing = judgeRequiredChecks(['ci'], [], [{ context: 'other', state: 'success' }]);
    expect(describeBlockingCheck(missing.checks)).toBe('required check "ci" has not reported');
    const status = judgeRequiredChecks(['ci'], [], [{ context: 'ci', state: 'error' }]);
    expect(describeBlockingCheck(status.checks)).toBe('required check "ci" is failing (error)');
  });
});
