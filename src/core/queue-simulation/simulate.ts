/**
 * Discrete-event simulation of the linked-set queue: the trace's sets arrive, the queue logic
 * (src/core/set-queue, exactly what the App runs) decides, evaluations take their trace time on a
 * fake clock, landings are instant. Pure: no timers, no I/O; the same trace gives the same figures.
 */
import {
  emptyQueue,
  enqueue,
  nextActions,
  type QueueAction,
  type QueueOptions,
  type QueueState,
  recordLanded,
  recordResult,
} from '../set-queue/queue-state.ts';
import type { TraceSet } from './trace.schema.ts';
import { trulyPasses } from './true-outcome.ts';

interface Running {
  itemId: string;
  ahead: string[];
  attempt: number;
  diagnostic: boolean;
  end: number;
}

export interface SimulationLog {
  /** Seconds from arrival to landing, per landed set. */
  landed: Array<{ id: string; seconds: number }>;
  evicted: Array<{ id: string; reason: string; innocent: boolean; blame?: string }>;
  evaluationsStarted: number;
  diagnostics: number;
  cancelled: number;
  /** Sets still queued when the trace ran out of events (a stall). */
  unfinished: string[];
}

export function simulate(trace: readonly TraceSet[], opts: QueueOptions): SimulationLog {
  const byId = new Map(trace.map((t) => [t.id, t]));
  const arrivals = [...trace].sort((a, b) => a.arrival - b.arrival);
  const firstRunDone = new Set<string>();
  const landedAt = new Map<string, number>();
  const log: SimulationLog = {
    landed: [],
    evicted: [],
    evaluationsStarted: 0,
    diagnostics: 0,
    cancelled: 0,
    unfinished: [],
  };
  let state: QueueState = emptyQueue();
  let running: Running[] = [];
  let next = 0;
  let now = 0;

  const perform = (a: QueueAction): void => {
    const set = byId.get(a.itemId) as TraceSet;
    if (a.kind === 'evaluate') {
      log.evaluationsStarted++;
      if (a.diagnostic) log.diagnostics++;
      running.push({
        itemId: a.itemId,
        ahead: a.ahead,
        attempt: a.attempt,
        diagnostic: !!a.diagnostic,
        end: now + set.evaluation,
      });
    } else if (a.kind === 'cancel') {
      const at = running.findIndex((r) => r.itemId === a.itemId && r.ahead.join() === a.ahead.join());
      if (at >= 0) {
        running.splice(at, 1);
        log.cancelled++;
      }
    } else if (a.kind === 'land') {
      landedAt.set(a.itemId, now);
      log.landed.push({ id: a.itemId, seconds: now - set.arrival });
      state = recordLanded(state, a.itemId);
    } else {
      // Innocent: on what has landed by now in its lanes, its own evaluation would have passed.
      const onBase = [...landedAt.keys()].map((id) => byId.get(id) as TraceSet);
      log.evicted.push({
        id: a.itemId,
        reason: a.reason,
        innocent: trulyPasses(set, onBase),
        ...(a.blame ? { blame: a.blame.itemId } : {}),
      });
    }
  };

  const drive = (): void => {
    for (;;) {
      const out = nextActions(state, opts);
      state = out.state;
      if (out.actions.length === 0) return;
      for (const a of out.actions) perform(a);
    }
  };

  for (;;) {
    const arrival = arrivals[next]?.arrival ?? Number.POSITIVE_INFINITY;
    const done = Math.min(...running.map((r) => r.end));
    if (arrival === Number.POSITIVE_INFINITY && done === Number.POSITIVE_INFINITY) break;
    now = Math.min(arrival, done);
    while (next < arrivals.length && (arrivals[next] as TraceSet).arrival <= now) {
      const t = arrivals[next++] as TraceSet;
      state = enqueue(state, {
        id: t.id,
        enqueuedAt: t.arrival,
        members: t.repos.map((repo, i) => ({ pull: `${repo}#${i + 1}`, repo, baseBranch: t.baseBranch })),
        ...(t.wiring ? { wiringRepos: t.wiring } : {}),
      });
    }
    const finished = running.filter((r) => r.end <= now);
    running = running.filter((r) => r.end > now);
    for (const r of finished) state = recordResult(state, r.itemId, r.ahead, outcome(r), r.attempt);
    drive();
  }
  log.unfinished = state.items.map((x) => x.item.id);
  return log;

  function outcome(r: Running) {
    const set = byId.get(r.itemId) as TraceSet;
    const passes = trulyPasses(
      set,
      r.ahead.map((id) => byId.get(id) as TraceSet),
    );
    if (r.diagnostic)
      return passes
        ? { outcome: 'pass' as const, passesAlone: true }
        : { outcome: 'fail' as const, failedConfigurations: ['full'], passesAlone: false };
    if (set.flaky && !firstRunDone.has(set.id)) {
      firstRunDone.add(set.id);
      if (passes) return { outcome: 'flaky' as const, failedConfigurations: ['full'] };
    }
    firstRunDone.add(set.id);
    return passes
      ? { outcome: 'pass' as const }
      : { outcome: 'fail' as const, failedConfigurations: ['full'] };
  }
}
