/**
 * The queue logic on many random traces (seeded): whatever the budget, retries, pair failures and
 * flaky sets, every set ends landed or evicted, no set is evicted innocently, the budget is never
 * exceeded, conflicting sets land in queue order, and nothing lands that fails on what landed before it.
 */
import { describe, expect, it } from 'vitest';
import { simulate } from '../../src/core/queue-simulation/simulate.ts';
import { type TraceSet, TraceSetSchema } from '../../src/core/queue-simulation/trace.schema.ts';
import { trulyPasses } from '../../src/core/queue-simulation/true-outcome.ts';

function random(seed: number): () => number {
  let x = seed;
  return () => {
    x = (x * 1103515245 + 12345) % 2147483648;
    return x / 2147483648;
  };
}

function randomTrace(seed: number): TraceSet[] {
  const r = random(seed);
  const repos = ['acme/a', 'acme/b', 'acme/c', 'acme/d', 'acme/e', 'acme/f'];
  const sets: TraceSet[] = [];
  let clock = 0;
  for (let i = 0; i < 30; i++) {
    const mine = repos.filter(() => r() < 0.35);
    const earlier = sets.length > 0 && r() < 0.08 ? [sets[Math.floor(r() * sets.length)]?.id as string] : [];
    sets.push(
      TraceSetSchema.parse({
        id: `s${i}`,
        arrival: Math.round(clock),
        repos: mine.length ? mine : ['acme/a'],
        evaluation: 50 + Math.round(r() * 100),
        outcome: r() < 0.15 ? 'fail' : 'pass',
        flaky: r() < 0.1,
        ...(earlier.length ? { failsWith: earlier } : {}),
      }),
    );
    clock += r() * 80;
  }
  return sets;
}

const shares = (a: TraceSet, b: TraceSet) => a.repos.some((x) => b.repos.includes(x));

describe('queue logic invariants on random traces', () => {
  for (let seed = 1; seed <= 40; seed++) {
    const speculation = 1 + (seed % 6);
    const retries = seed % 3;
    const serial = seed % 5 === 0;
    it(`seed ${seed}, ${serial ? 'serial' : `speculation ${speculation}`}, retries ${retries}`, () => {
      const trace = randomTrace(seed);
      const log = simulate(trace, { speculation, retries, serial });
      expect(log.unfinished).toEqual([]);
      expect(log.landed.length + log.evicted.length).toBe(trace.length);
      expect(log.evicted.filter((e) => e.innocent)).toEqual([]);
      expect(log.maxRunning).toBeLessThanOrEqual(serial ? 1 : speculation);
      const byId = new Map(trace.map((t) => [t.id, t]));
      const order = log.landed.map((x) => x.id);
      for (const [i, id] of order.entries()) {
        const set = byId.get(id) as TraceSet;
        const before = order.slice(0, i).map((x) => byId.get(x) as TraceSet);
        // What landed is what passed: it passes on the sets that landed before it.
        expect(
          trulyPasses(
            set,
            before.filter((b) => shares(b, set)),
          ),
          id,
        ).toBe(true);
        // A conflicting set queued earlier that landed did so first.
        const at = trace.indexOf(set);
        for (const later of order.slice(i + 1).map((x) => byId.get(x) as TraceSet))
          if (shares(later, set)) expect(trace.indexOf(later), `${later.id} after ${id}`).toBeGreaterThan(at);
      }
    });
  }
});
