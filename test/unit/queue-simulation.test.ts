/** The queue simulator (src/core/queue-simulation): pair failures and blame, innocence, flaky sets, determinism. */
import { describe, expect, it } from 'vitest';
import { queueFigures } from '../../src/core/queue-simulation/figures.ts';
import { parseTrace } from '../../src/core/queue-simulation/parse-trace.ts';
import { simulate } from '../../src/core/queue-simulation/simulate.ts';
import type { TraceSet } from '../../src/core/queue-simulation/trace.schema.ts';

const OPTS = { speculation: 4, retries: 2 };

function trace(...sets: Array<Partial<TraceSet> & { id: string }>): TraceSet[] {
  return parseTrace(
    sets
      .map((s) => JSON.stringify({ arrival: 0, repos: ['acme/api'], evaluation: 100, outcome: 'pass', ...s }))
      .join('\n'),
    'trace.jsonl',
  );
}

describe('queue simulation', () => {
  it('a pair failure: the later set passes alone, is evicted blaming the earlier one once it landed; not innocent', () => {
    // b's run on a fails at 50 s, its run alone passes at 100 s, as a lands.
    const t = trace({ id: 'a' }, { id: 'b', failsWith: ['a'], evaluation: 50 });
    const log = simulate(t, OPTS);
    expect(log.landed).toEqual([{ id: 'a', seconds: 100 }]);
    expect(log.evicted).toEqual([
      { id: 'b', reason: "passes alone, fails together with a's set", innocent: false, blame: 'a' },
    ]);
    expect(log.diagnostics).toBe(1);
    // a, b on a, b alone: each decided something.
    expect(queueFigures(t, log)).toMatchObject({ wasted: 0, innocentEvictions: 0, evaluationsStarted: 3 });
  });

  it('a set behind a broken one fails too, and is evaluated again without it rather than evicted', () => {
    const t = trace({ id: 'a', outcome: 'fail' }, { id: 'b', evaluation: 50 });
    const log = simulate(t, OPTS);
    // b's run on a fails first (50 s); its diagnostic alone passes at 100 s as a fails: b is evaluated
    // again on what is now ahead of it (nothing) and lands at 150 s.
    expect(log.evicted.map((e) => [e.id, e.innocent])).toEqual([['a', false]]);
    expect(log.landed).toEqual([{ id: 'b', seconds: 150 }]);
  });

  it('a flaky set is re-run, lands, and the sets behind it keep their speculative runs', () => {
    const t = trace({ id: 'a', flaky: true }, { id: 'b' });
    const log = simulate(t, OPTS);
    expect(log.evicted).toEqual([]);
    expect(log.landed).toEqual([
      { id: 'a', seconds: 200 },
      { id: 'b', seconds: 200 },
    ]);
    expect(log.evaluationsStarted).toBe(3);
  });

  it('independent sets land together; serial takes them one after another', () => {
    const t = trace({ id: 'a' }, { id: 'b', repos: ['acme/web'] }, { id: 'c', repos: ['acme/ops'] });
    expect(queueFigures(t, simulate(t, OPTS))).toMatchObject({ p50: 1, p95: 1 });
    expect(queueFigures(t, simulate(t, { ...OPTS, serial: true }))).toMatchObject({ p50: 2, p95: 3 });
  });

  it('the same trace gives the same figures', () => {
    const t = trace(
      { id: 'a', outcome: 'fail' },
      { id: 'b', flaky: true, arrival: 30 },
      { id: 'c', arrival: 60 },
    );
    expect(simulate(t, OPTS)).toEqual(simulate(t, OPTS));
  });

  it('duplicate ids are bad input naming both lines', () => {
    expect(() => trace({ id: 'a' }, { id: 'a' })).toThrow(
      'trace.jsonl:2: field "id": "a" is already used on line 1',
    );
  });
});
