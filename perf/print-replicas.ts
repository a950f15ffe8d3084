/**
 * `BENCH_ONLY=replicas`'s report: the replicas on PostgreSQL (perf/replicas-bench.ts) beside one
 * App on its embedded store (perf/app-bench.ts) measured in the same run, one row per figure, and
 * one PASS/FAIL line per target of issue 27 (reported, never asserted).
 */
import type { AppBenchResult } from './app-bench.ts';
import type { ReplicasBenchResult } from './replicas-bench.ts';

/** Last delivery → every final head's check completed, at most this (issue 27). */
export const REPLICAS_LATENCY_TARGET_S = 60;

type Side = ReplicasBenchResult | AppBenchResult | { error: string };

type Failed = { error: string };
const failed = (s: Side): s is Failed => 'error' in s;

function cells(s: Side): string[] {
  if (failed(s)) return Array(8).fill('failed');
  const seconds = (x: number) => (x < 0 ? 'never' : `${x.toFixed(1)} s`);
  return [
    `${s.lost.checks} / ${s.lost.comments}`,
    `${s.duplicated.checks} / ${s.duplicated.comments}`,
    String(s.orphaned.checks),
    Object.entries(s.finalConclusions)
      .map(([c, n]) => `${n} ${c}`)
      .join(', '),
    seconds(s.lastDeliveryToChecksS),
    seconds(s.lastDeliveryToCommentsS),
    String(s.secondaryLimited),
    `${s.p50Ms.toFixed(0)} / ${s.p99Ms.toFixed(0)} ms`,
  ];
}

const LABELS = [
  'lost checks / comments',
  'duplicated checks / comments',
  'orphaned checks',
  "final heads' checks by conclusion",
  'last delivery → every final head checked',
  'last delivery → every comment up to date',
  'secondary-limit refusals',
  'webhook → 2xx p50 / p99',
];

export function printReplicasComparison(
  replicas: ReplicasBenchResult | Failed,
  embedded: AppBenchResult | Failed,
): string {
  const r = cells(replicas);
  const e = cells(embedded);
  const head =
    'error' in replicas
      ? 'replicas (failed)'
      : `${replicas.replicas} replicas + ${replicas.workers - 1} workers, PostgreSQL`;
  const width = Math.max(...LABELS.map((l) => l.length));
  const colR = Math.max(head.length, ...r.map((c) => c.length));
  const rows = [
    `${''.padEnd(width)}  ${head.padStart(colR)}  1 App, embedded store`,
    ...LABELS.map((l, i) => `${l.padEnd(width)}  ${r[i]!.padStart(colR)}  ${e[i]!.padStart(21)}`),
  ];
  const out = ['Scale-out (issue 27): replicas on PostgreSQL beside one App on its embedded store', ...rows];
  if (!('error' in replicas)) {
    const ok = (b: boolean) => (b ? 'PASS' : 'FAIL');
    out.push(
      `  ${replicas.sets} sets, ${replicas.pulls} PRs, ${replicas.deliveries} signed deliveries in 4 bursts, each sent to ${replicas.sentTo} replicas at once (one id, one body);`,
      `  a replica SIGKILLed at delivery ${replicas.replicaKilledAt}, a worker SIGKILLed holding ${replicas.workerKilledHolding} configuration(s); ${replicas.configurationsStarted} configurations started on the workers (retries included)`,
      `  ${ok(replicas.lost.checks + replicas.lost.comments === 0)} 0 lost checks and comments`,
      `  ${ok(replicas.finalConclusions.success === replicas.pulls)} every final head's check a verdict (the stub's RESOLVED: success), none an infrastructure failure`,
      `  ${ok(replicas.duplicated.checks + replicas.duplicated.comments === 0)} 0 duplicated checks and comments`,
      `  ${ok(replicas.lastDeliveryToChecksS >= 0 && replicas.lastDeliveryToChecksS <= REPLICAS_LATENCY_TARGET_S)} every final head's check completed ≤ ${REPLICAS_LATENCY_TARGET_S} s after the last delivery: ${replicas.lastDeliveryToChecksS} s`,
      `  ${ok(replicas.secondaryLimited === 0)} 0 secondary-limit refusals: ${replicas.secondaryLimited}`,
      `  ${ok(replicas.workerKilledHolding > 0)} the killed worker held a job: ${replicas.workerKilledHolding}`,
    );
  } else out.push(`  the replicas scenario failed: ${replicas.error}`);
  if (failed(embedded)) out.push(`  the embedded scenario failed: ${embedded.error}`);
  return out.join('\n');
}
