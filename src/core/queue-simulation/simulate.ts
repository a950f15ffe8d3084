/**
 * Discrete-event simulation of the linked-set queue: the trace's sets arrive, the queue logic
 * (src/core/set-queue, exactly what the App runs) decides, evaluations take their trace time on a
 * fake clock, landings are instant. Pure: no timers, no I/O; the same trace gives the same figures.
 */
import {
  type EvaluationResult,
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
  /** The sets landed when it started: the base tips it is built on. */
  base: string[];
}

export interface SimulationLog {
  /** Seconds from arrival to landing, per landed set. */
  landed: Array<{ id: string; seconds: number }>;
  evicted: Array<{ id: string; reason: string; innocent: boolean; blame?: string }>;
  evaluationsStarted: number;
  diagnostics: number;
  cancelled: number;
  /** The most evaluations running at once (never above the budget). */
  maxRunning: number;
  /** Sets still queued when the trace ran out of events (a stall). */
  unfinished: string[];
}

/** The simulation's world: the queue state, the runs in flight, the clock and what happened. */
interface World {
  byId: Map<string, TraceSet>;
  opts: QueueOptions;
  state: QueueState;
  running: Running[];
  now: number;
  landed: Set<string>;
  /** Sets whose first evaluation has come back (a flaky set is flaky on that one only). */
  firstRunDone: Set<string>;
  log: SimulationLog;
}

export function simulate(trace: readonly TraceSet[], opts: QueueOptions): SimulationLog {
  const w: World = {
    byId: new Map(trace.map((t) => [t.id, t])),
    opts,
    state: emptyQueue(),
    running: [],
    now: 0,
    landed: new Set(),
    firstRunDone: new Set(),
    log: {
      landed: [],
      evicted: [],
      evaluationsStarted: 0,
      diagnostics: 0,
      cancelled: 0,
      maxRunning: 0,
      unfinished: [],
    },
  };
  const arrivals = [...trace].sort((a, b) => a.arrival - b.arrival);
  let next = 0;
  for (;;) {
    const arrival = arrivals[next]?.arrival ?? Number.POSITIVE_INFINITY;
    const done = Math.min(...w.running.map((r) => r.end));
    if (arrival === Number.POSITIVE_INFINITY && done === Number.POSITIVE_INFINITY) break;
    w.now = Math.min(arrival, done);
    while (next < arrivals.length && (arrivals[next] as TraceSet).arrival <= w.now)
      w.state = enqueue(w.state, itemOf(arrivals[next++] as TraceSet));
    const finished = w.running.filter((r) => r.end <= w.now);
    w.running = w.running.filter((r) => r.end > w.now);
    for (const r of finished) w.state = recordResult(w.state, r.itemId, r.ahead, resultOf(w, r), r.attempt);
    drive(w);
  }
  w.log.unfinished = w.state.items.map((x) => x.item.id);
  return w.log;
}

function itemOf(t: TraceSet) {
  return {
    id: t.id,
    enqueuedAt: t.arrival,
    members: t.repos.map((repo, i) => ({ pull: `${repo}#${i + 1}`, repo, baseBranch: t.baseBranch })),
    ...(t.wiring ? { wiringRepos: t.wiring } : {}),
  };
}

/** Asks the queue what to do until it has nothing more to say at this instant (landings free more). */
function drive(w: World): void {
  for (;;) {
    const out = nextActions(w.state, w.opts);
    w.state = out.state;
    if (out.actions.length === 0) return;
    for (const a of out.actions) perform(w, a);
  }
}

function perform(w: World, a: QueueAction): void {
  const set = w.byId.get(a.itemId) as TraceSet;
  if (a.kind === 'evaluate') {
    w.log.evaluationsStarted++;
    if (a.diagnostic) w.log.diagnostics++;
    const diagnostic = a.diagnostic !== undefined;
    w.running.push({
      itemId: a.itemId,
      ahead: a.ahead,
      attempt: a.attempt,
      diagnostic,
      end: w.now + set.evaluation,
      base: [...w.landed],
    });
  } else if (a.kind === 'cancel') {
    const at = w.running.findIndex((r) => r.itemId === a.itemId && r.ahead.join() === a.ahead.join());
    if (at >= 0) {
      w.running.splice(at, 1);
      w.log.cancelled++;
    }
  } else if (a.kind === 'land') {
    w.landed.add(a.itemId);
    w.log.landed.push({ id: a.itemId, seconds: w.now - set.arrival });
    w.state = recordLanded(w.state, a.itemId);
  } else {
    // Innocent: on what has landed by now, its own evaluation would have passed.
    const onBase = [...w.landed].map((id) => w.byId.get(id) as TraceSet);
    w.log.evicted.push({
      id: a.itemId,
      reason: a.reason,
      innocent: trulyPasses(set, onBase),
      ...(a.blame ? { blame: a.blame.itemId } : {}),
    });
  }
}

/**
 * What the run says: the truth for its state (the base tips as they were when it started, which
 * hold every set landed by then, plus the sets ahead), flaky on a flaky set's first evaluation.
 */
function resultOf(w: World, r: Running): EvaluationResult {
  const set = w.byId.get(r.itemId) as TraceSet;
  const passes = trulyPasses(
    set,
    [...r.base, ...r.ahead].map((id) => w.byId.get(id) as TraceSet),
  );
  if (r.diagnostic)
    return passes
      ? { outcome: 'pass', passesAlone: true }
      : { outcome: 'fail', failedConfigurations: ['full'], passesAlone: false };
  const first = !w.firstRunDone.has(set.id);
  w.firstRunDone.add(set.id);
  if (set.flaky && first && passes) return { outcome: 'flaky', failedConfigurations: ['full'] };
  return passes ? { outcome: 'pass' } : { outcome: 'fail', failedConfigurations: ['full'] };
}
