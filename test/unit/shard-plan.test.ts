import { describe, expect, it } from 'vitest';
import { type MatrixPlan, planMatrix } from '../../src/core/matrix-plan.ts';
import { formatShard, planShards, shardConfigurations, shardSchema } from '../../src/core/shard-plan.ts';

const A = 'acme/api';
const W = 'acme/web';
const C = 'acme/cli';
const targetsOf = (n: number) => Array.from({ length: n }, (_, i) => `org/r${i}`);
const ids = (p: MatrixPlan) => p.configurations.map((c) => c.id);

describe('shards', () => {
  it('parses i/n', () => {
    expect(shardSchema.parse('1/3')).toEqual({ index: 1, count: 3 });
    expect(shardSchema.parse('3/3')).toEqual({ index: 3, count: 3 });
    expect(shardSchema.parse('1/1')).toEqual({ index: 1, count: 1 });
  });

  it.each(['0/3', '4/3', '1/0', '0/0'])('rejects out-of-range %s', (s) => {
    const r = shardSchema.safeParse(s);
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]?.message).toMatch(/1 <= i <= n/);
  });

  it.each(['', '1', '1/', '/2', 'a/b', '1/2/3', '-1/2', '1.5/2', ' 1/2'])('rejects malformed %j', (s) => {
    const r = shardSchema.safeParse(s);
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]?.message).toMatch(/expected "i\/n"/);
  });

  it.each([
    [3, 'full', 1],
    [3, 'full', 2],
    [3, 'full', 3],
    [3, 'full', 5],
    [3, 'full', 8],
    [3, 'full', 10],
    [6, 'leave-one-out', 4],
    [4, 'auto', 7],
  ] as const)('%i targets (%s) in %i shards cover every configuration exactly once', (n, mode, count) => {
    const p = planMatrix(targetsOf(n), mode);
    const shares = Array.from({ length: count }, (_, i) => shardConfigurations(p, { index: i + 1, count }));
    const all = shares.flat().map((c) => c.id);
    expect(all.sort()).toEqual(ids(p).sort());
    // Round-robin keeps shares within one of each other.
    const sizes = shares.map((s) => s.length);
    expect(Math.max(...sizes) - Math.min(...sizes)).toBeLessThanOrEqual(1);
  });

  it('is deterministic and keeps plan order within a shard', () => {
    const p = planMatrix([A, W, C], 'full');
    expect(shardConfigurations(p, { index: 1, count: 3 }).map((c) => c.id)).toEqual([
      'base',
      'cli',
      'web+cli',
    ]);
    expect(shardConfigurations(p, { index: 2, count: 3 }).map((c) => c.id)).toEqual([
      'api',
      'api+web',
      'full',
    ]);
    expect(shardConfigurations(p, { index: 3, count: 3 }).map((c) => c.id)).toEqual(['web', 'api+cli']);
    expect(shardConfigurations(p, { index: 1, count: 1 }).map((c) => c.id)).toEqual(ids(p));
  });
});

describe('planShards', () => {
  it('splits the plan and labels each shard i/n', () => {
    const p = planMatrix([A, W, C], 'full');
    const sharded = planShards(p, 3);
    expect(sharded.mode).toBe('full');
    expect(sharded.configurations).toBe(p.configurations);
    expect(sharded.shards).toEqual([
      { shard: '1/3', configurations: ['base', 'cli', 'web+cli'] },
      { shard: '2/3', configurations: ['api', 'api+web', 'full'] },
      { shard: '3/3', configurations: ['web', 'api+cli'] },
    ]);
  });

  it('caps the shards at the number of configurations (no shard runs nothing)', () => {
    const p = planMatrix([A], 'full');
    const sharded = planShards(p, 10);
    expect(sharded.shards.map((s) => s.shard)).toEqual(['1/2', '2/2']);
    expect(sharded.shards.every((s) => s.configurations.length === 1)).toBe(true);
    // Each label parses back into the shard that runs exactly those configurations.
    for (const s of sharded.shards) {
      const shard = shardSchema.parse(s.shard);
      expect(formatShard(shard)).toBe(s.shard);
      expect(shardConfigurations(p, shard).map((c) => c.id)).toEqual(s.configurations);
    }
  });

  it.each([0, -1, 1.5, Number.NaN])('refuses %d shards', (n) => {
    expect(() => planShards(planMatrix([A], 'full'), n)).toThrow(RangeError);
  });
});
