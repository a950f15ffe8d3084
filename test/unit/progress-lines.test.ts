import { describe, expect, it } from 'vitest';
import type { EvaluationEvent } from '../../src/core/evaluation-event.ts';
import { configurationDoneLine, progressLine } from '../../src/core/progress-lines.ts';

const done = (over: Partial<Extract<EvaluationEvent, { type: 'configuration-done' }>> = {}) => ({
  type: 'configuration-done' as const,
  id: 'api+web',
  attempt: 0,
  outcome: 'pass' as const,
  passed: 12,
  total: 12,
  cached: false,
  durationMs: 3412,
  ...over,
});

describe('progress lines', () => {
  it('say a finished configuration the same way for every face', () => {
    expect(configurationDoneLine(done())).toBe('  api+web: pass 12/12 3.4s');
    expect(configurationDoneLine(done({ attempt: 2, outcome: 'fail', passed: 11 }))).toBe(
      '  api+web (rerun 2): fail 11/12 3.4s',
    );
    expect(configurationDoneLine(done({ cached: true }))).toBe('  api+web: pass 12/12 cached');
    expect(configurationDoneLine(done({ outcome: 'error' }))).toBe('  api+web: infrastructure error 3.4s');
    // A shard without the all-base run cannot judge what it ran (core/expected-tests.ts).
    expect(configurationDoneLine(done({ outcome: 'unjudged', passed: 0, total: 0 }))).toBe(
      '  api+web: ran (judged with the all-base run, which this evaluation does not run) 3.4s',
    );
  });

  it.each([
    [
      {
        type: 'plan',
        mode: 'full',
        configurations: [
          { id: 'base', applied: [] },
          { id: 'full', applied: ['a/b'] },
        ],
      },
      'tandem: 2 configuration(s), matrix full',
    ],
    [
      { type: 'state-ready', repo: 'acme/api', state: 'head', sha: '0123456789abcdef0123' },
      '  acme/api head at 0123456789ab',
    ],
    [
      { type: 'prepare-done', repo: 'acme/api', key: 'k', reused: true, durationMs: 5 },
      '  prepared acme/api (reused)',
    ],
    [
      { type: 'prepare-done', repo: 'acme/api', key: 'k', reused: false, durationMs: 1250 },
      '  prepared acme/api (1.3s)',
    ],
    [{ type: 'log', level: 'warn', message: 'slow disk' }, '  warn: slow disk'],
  ] as Array<[EvaluationEvent, string]>)('%j', (event, want) => {
    expect(progressLine(event)).toBe(want);
  });

  it('give no line for starts and resolved refs', () => {
    expect(progressLine({ type: 'configuration-start', id: 'base', attempt: 0 })).toBeUndefined();
    expect(progressLine({ type: 'resolved-refs', repos: [] })).toBeUndefined();
  });
});
