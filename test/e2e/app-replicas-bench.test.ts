/**
 * The scale-out harness (perf/replicas-bench.ts, `BENCH_ONLY=replicas npm run bench`) at a tiny
 * scale, so it cannot rot: 2 App replicas as processes on a PostgreSQL database of its own, the
 * organization on `executor: workers` with 2 worker processes (stub work), 3 linked sets and 32
 * signed deliveries each sent to both replicas at once; one replica SIGKILLed halfway, one worker
 * SIGKILLed while it holds a job. Every final head gets exactly one completed check and one
 * up-to-date comment. The killed worker's configuration must come back while its job's lease
 * (the suite's limits plus ten minutes) is still running: its host's silence releases it.
 */
import { describe, expect, it } from 'vitest';
import { runReplicasBench } from '../../perf/replicas-bench.ts';

describe('the replicas harness at a tiny scale', () => {
  it('loses and duplicates no check or comment when a replica and a worker are killed', async () => {
    const r = await runReplicasBench({
      sets: 3,
      replicas: 2,
      workers: 2,
      parallel: 4,
      burstGapMs: 0,
      // Far below the killed job's lease: only the silent-host release brings it back in time.
      settleMs: 150_000,
      log: () => {},
    });
    expect(r.deliveries).toBe(32);
    expect(r.sentTo).toBe(2);
    expect(r.workerKilledHolding).toBeGreaterThan(0);
    expect({ lost: r.lost, duplicated: r.duplicated, orphaned: r.orphaned }).toEqual({
      lost: { checks: 0, comments: 0 },
      duplicated: { checks: 0, comments: 0 },
      orphaned: { checks: 0 },
    });
    // Completed is not enough: each is the stub's verdict, none an evaluation that failed.
    expect(r.finalConclusions).toEqual({ success: r.pulls });
    expect(r.lastDeliveryToChecksS).toBeGreaterThanOrEqual(0);
  }, 420_000);
});
