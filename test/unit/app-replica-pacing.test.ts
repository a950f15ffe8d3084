/**
 * GitHub's secondary limits counted per installation across replicas (store-pacing.ts) on both
 * backends: of 120 content starts three replicas ask for at once, 80 start and the rest are told
 * how long until the minute has room; the hour's 500 hold too; buckets are separate.
 */
import { describe, expect, it } from 'vitest';
import { SharedPacing } from '../../src/app/replicas/shared-pacing.ts';
import { GITHUB_LIMITS } from '../../src/core/github-rate-windows.ts';
import { STORE_BACKENDS, useTempStore } from './app-fixtures.ts';

describe.each(STORE_BACKENDS)('shared pacing on %s', (backend) => {
  const temp = useTempStore('tandem-pacing-', backend);

  it('lets three replicas together start 80 content requests a minute, no more', async () => {
    const replicas = [await temp.open(), await temp.open(), await temp.open()];
    const now = 1_000_000_000;
    const waits = await Promise.all(
      Array.from({ length: 120 }, (_, i) =>
        replicas[i % 3]!.pacing.take('7:content', GITHUB_LIMITS.content, now),
      ),
    );
    expect(waits.filter((w) => w === 0)).toHaveLength(80);
    // The rest wait for the first start to leave the minute.
    expect(new Set(waits.filter((w) => w > 0))).toEqual(new Set([60_000]));
    expect(await replicas[0]!.pacing.take('7:content', GITHUB_LIMITS.content, now + 60_000)).toBe(0);
    // Another installation has its own budget.
    expect(await replicas[1]!.pacing.take('8:content', GITHUB_LIMITS.content, now)).toBe(0);
    expect(await replicas[2]!.pacing.startsWithin('7:content', 60_000, now + 60_000)).toBe(1);
  });

  it('holds the hour: 500 content starts, spread so each minute has room, then a wait', async () => {
    const s = await temp.open();
    const t0 = 2_000_000_000;
    let started = 0;
    // 50 starts a minute for ten minutes: under 80 a minute, 500 in all.
    for (let minute = 0; minute < 10; minute++)
      for (let i = 0; i < 50; i++)
        if ((await s.pacing.take('7:content', GITHUB_LIMITS.content, t0 + minute * 60_000 + i)) === 0)
          started++;
    expect(started).toBe(500);
    const at = t0 + 10 * 60_000;
    expect(await s.pacing.take('7:content', GITHUB_LIMITS.content, at)).toBe(t0 + 3_600_000 - at);
  });

  it('paces searches at 30 a minute', async () => {
    const s = await temp.open();
    const waits = await Promise.all(
      Array.from({ length: 31 }, () => s.pacing.take('7:search', GITHUB_LIMITS.search, 5_000)),
    );
    expect(waits.filter((w) => w === 0)).toHaveLength(30);
  });

  it("keeps GitHub's minute 2 s longer from the takes: a start taken 60.5 s after a full minute waits", async () => {
    const s = await temp.open();
    // A full minute of starts taken 60.5 s ago: GitHub may have counted their arrivals later.
    const then = Date.now() - 60_500;
    for (let i = 0; i < 80; i++)
      expect(await s.pacing.take('7:content', GITHUB_LIMITS.content, then)).toBe(0);
    const pacing = new SharedPacing(s.pacing);
    const stop = new AbortController();
    const took = pacing.take('7', 'content', stop.signal).then(() => 'started' as const);
    const waited = (async () => {
      while (pacing.waits === 0) await new Promise((r) => setTimeout(r, 5));
      return 'waited' as const;
    })();
    expect(await Promise.race([took, waited])).toBe('waited');
    stop.abort(new Error('done'));
    await expect(took).rejects.toThrow('done');
  });
});
