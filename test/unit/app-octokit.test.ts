/**
 * The schedulers the App's Octokit hands to the throttling plugin, and the plugin itself running
 * through them against the GitHub stand-in's injected rate limits (real HTTP on loopback).
 */
import { describe, expect, it } from 'vitest';
import { Gate, RetryScheduler } from '../../src/app/octokit.ts';
import { standInClient, useStandIn } from './app-fixtures.ts';

const use = useStandIn('tandem-octokit-');

/** The stand-in with acme/api, and an installation client of it with the App's Octokit. */
async function apiClient() {
  const standIn = await use.start();
  standIn.addRepo({ owner: 'acme', name: 'api' });
  return { standIn, gh: standInClient(standIn) };
}

describe('Gate', () => {
  it('runs at most maxConcurrent jobs at once, in arrival order', async () => {
    const gate = new Gate(2);
    let running = 0;
    let peak = 0;
    const order: number[] = [];
    const job = (i: number) => async () => {
      running += 1;
      peak = Math.max(peak, running);
      order.push(i);
      await new Promise((r) => setTimeout(r, 5));
      running -= 1;
      return i;
    };
    const results = await Promise.all([0, 1, 2, 3, 4].map((i) => gate.schedule({}, job(i))));
    expect(results).toEqual([0, 1, 2, 3, 4]);
    expect(order).toEqual([0, 1, 2, 3, 4]);
    expect(peak).toBe(2);
  });

  it('lets retries (weight 0) through without waiting for a slot', async () => {
    const gate = new Gate(1);
    let release = () => {};
    const blocker = gate.schedule(() => new Promise<void>((r) => (release = r)));
    const retried = await gate.schedule({ weight: 0, priority: 0 }, async (x: unknown) => x, 'retry');
    expect(retried).toBe('retry');
    release();
    await blocker;
  });

  it('passes a job failure to its caller and frees the slot', async () => {
    const gate = new Gate(1);
    await expect(gate.schedule(() => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await gate.schedule(async () => 'next')).toBe('next');
  });
});

describe('Gate pacing', () => {
  it('starts at most `max` jobs in any window, the next once the oldest start leaves it', async () => {
    const gate = new Gate(10, 0, { windows: [{ max: 3, ms: 150 }] });
    const started: number[] = [];
    const t0 = Date.now();
    await Promise.all([0, 1, 2, 3, 4].map(() => gate.schedule(async () => started.push(Date.now() - t0))));
    expect(started.slice(0, 3).every((t) => t < 100)).toBe(true);
    expect(started[3]).toBeGreaterThanOrEqual(145);
    expect(started[4]).toBeGreaterThanOrEqual(145);
  });

  it('counts a retry in its windows, though it does not wait for them', async () => {
    const gate = new Gate(10, 0, { windows: [{ max: 2, ms: 60_000 }] });
    expect(await gate.schedule({ weight: 0, priority: 0 }, async () => 'retry')).toBe('retry');
    expect(await gate.schedule(async () => 'fresh')).toBe('fresh');
    // The window is full (the retry and one fresh start): the next waits for a minute.
    let late = false;
    void gate.schedule(async () => {
      late = true;
    });
    await new Promise((r) => setImmediate(r));
    expect(late).toBe(false);
  });

  it('takes the newest waiting job first when asked to', async () => {
    const gate = new Gate(1, 0, { newestFirst: true });
    const order: number[] = [];
    let release = () => {};
    const held = new Promise<void>((r) => (release = r));
    let began = () => {};
    const running = new Promise<void>((r) => (began = r));
    const first = gate.schedule(() => {
      began();
      return held;
    });
    const rest = [1, 2, 3].map((i) => gate.schedule(async () => order.push(i)));
    await running;
    release();
    await Promise.all([first, ...rest]);
    expect(order).toEqual([3, 2, 1]);
  });

  it('holds every start for as long as a pause says', async () => {
    const gate = new Gate(10);
    gate.pauseFor(120);
    const t0 = Date.now();
    const at = await gate.schedule(async () => Date.now() - t0);
    expect(at).toBeGreaterThanOrEqual(115);
  });
});

describe('RetryScheduler', () => {
  it('retries after what a failed listener returns, and rethrows when none wants a retry', async () => {
    const s = new RetryScheduler();
    const seen: number[] = [];
    s.on('failed', (_e, info) => {
      seen.push(info.retryCount);
      return info.retryCount < 2 ? 1 : undefined;
    });
    let calls = 0;
    await expect(
      s.schedule(async () => {
        calls += 1;
        throw new Error('limited');
      }),
    ).rejects.toThrow('limited');
    expect(calls).toBe(3);
    expect(seen).toEqual([0, 1, 2]);
    let ok = 0;
    expect(
      await s.schedule(async (x: unknown) => (++ok < 2 ? Promise.reject(new Error('once')) : x), 7),
    ).toBe(7);
  });
});

describe('TandemOctokit', () => {
  it('waits out primary and secondary rate limits and returns the real answer', async () => {
    const { standIn, gh } = await apiClient();
    standIn.rateLimitNext(1, 'secondary');
    const { data } = await gh.rest.checks.create({
      owner: 'acme',
      repo: 'api',
      name: 'Tandem',
      head_sha: 'a'.repeat(40),
    });
    expect(data.name).toBe('Tandem');
    standIn.rateLimitNext(1, 'primary');
    const repo = await gh.rest.repos.get({ owner: 'acme', repo: 'api' });
    expect(repo.data.full_name).toBe('acme/api');
    expect(standIn.requests.map((r) => r.status)).toEqual([429, 201, 403, 200]);
  });

  it('still fails fast on errors that are not rate limits', async () => {
    const { gh } = await apiClient();
    await expect(gh.rest.repos.get({ owner: 'acme', repo: 'nope' })).rejects.toMatchObject({ status: 404 });
  });
});
