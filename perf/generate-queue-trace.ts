/**
 * Generates the queue trace `npm run bench` and `tandem queue simulate` use: 200 linked sets of 3
 * repositories each out of a 16-repository organization, 10% failing, 5% flaky, seeded so the
 * same command writes the same file.
 *
 *   npx tsx perf/generate-queue-trace.ts [out.jsonl] [--seed N] [--sets N] [--interarrival T-multiple]
 *
 * perf/queue-trace-200.jsonl is `npx tsx perf/generate-queue-trace.ts perf/queue-trace-200.jsonl`.
 *
 * Shapes, and why:
 * - Repositories are picked with Zipf-like weights (1/rank): in a real organization a few shared
 *   repositories (the schema, the API, the SDK) are in most coordinated changes, so sets conflict
 *   often and lanes are long; a uniform pick would make most sets independent and flatter the queue.
 * - One evaluation takes T = 600 s, spread 0.7–1.5 T (log-uniform): matrices of different sizes.
 * - Arrivals are a Poisson process with a mean gap of 1.25 T (a set every 12.5 minutes). The serial
 *   baseline spends about 1.17 evaluations of about 1.05 T on each set (failures, flaky re-runs):
 *   about 1.23 T per set, so at this rate it is just at its capacity (load ~0.98) and queues
 *   several T deep in bursts, without the gap being so small that serial only loses by overload.
 *   (`--interarrival 0.8` is the heavier load the bench also reports.)
 * - Exactly 10% of the sets fail on their own and exactly 5% (of the others) are flaky, at random places.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { seededRandom } from '../test/helpers/seeded-random.ts';

export const ORG_REPOS = [
  'acme/schema',
  'acme/api',
  'acme/sdk-js',
  'acme/web',
  'acme/auth',
  'acme/billing',
  'acme/mobile',
  'acme/gateway',
  'acme/search',
  'acme/worker',
  'acme/notifications',
  'acme/admin',
  'acme/analytics',
  'acme/sdk-python',
  'acme/infra',
  'acme/docs',
];

export const TRACE_T_SECONDS = 600;

export interface TraceOptions {
  seed: number;
  sets: number;
  /** Mean gap between arrivals, in multiples of T. */
  interarrival: number;
  reposPerSet: number;
  failing: number;
  flaky: number;
}

export const DEFAULT_TRACE: TraceOptions = {
  seed: 28,
  sets: 200,
  interarrival: 1.25,
  reposPerSet: 3,
  failing: 0.1,
  flaky: 0.05,
};

export function generateQueueTrace(o: TraceOptions = DEFAULT_TRACE): string[] {
  const random = seededRandom(o.seed);
  const weights = ORG_REPOS.map((_, i) => 1 / (i + 1));
  const pick = (): string[] => {
    const chosen: string[] = [];
    while (chosen.length < o.reposPerSet) {
      const free = ORG_REPOS.map((r, i) => (chosen.includes(r) ? 0 : (weights[i] as number)));
      let x = random() * free.reduce((a, b) => a + b, 0);
      let at = 0;
      while (at < free.length - 1 && x >= (free[at] as number)) x -= free[at++] as number;
      chosen.push(ORG_REPOS[at] as string);
    }
    return chosen;
  };
  const order = (n: number) => {
    const ids = Array.from({ length: o.sets }, (_, i) => i);
    for (let i = ids.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [ids[i], ids[j]] = [ids[j] as number, ids[i] as number];
    }
    return ids.slice(0, n);
  };
  const failing = new Set(order(Math.round(o.sets * o.failing)));
  const flaky = new Set(
    order(o.sets)
      .filter((i) => !failing.has(i))
      .slice(0, Math.round(o.sets * o.flaky)),
  );
  let clock = 0;
  const lines: string[] = [];
  for (let i = 0; i < o.sets; i++) {
    const evaluation = Math.round(TRACE_T_SECONDS * 0.7 * (1.5 / 0.7) ** random());
    lines.push(
      JSON.stringify({
        id: `set-${String(i + 1).padStart(3, '0')}`,
        arrival: Math.round(clock),
        repos: pick(),
        evaluation,
        outcome: failing.has(i) ? 'fail' : 'pass',
        flaky: flaky.has(i),
      }),
    );
    clock += -Math.log(1 - random()) * o.interarrival * TRACE_T_SECONDS;
  }
  return lines;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const flag = (name: string) => {
    const at = args.indexOf(name);
    if (at < 0) return undefined;
    const v = Number(args[at + 1]);
    args.splice(at, 2);
    return v;
  };
  const o: TraceOptions = {
    ...DEFAULT_TRACE,
    seed: flag('--seed') ?? DEFAULT_TRACE.seed,
    sets: flag('--sets') ?? DEFAULT_TRACE.sets,
    interarrival: flag('--interarrival') ?? DEFAULT_TRACE.interarrival,
  };
  const lines = generateQueueTrace(o);
  const out = args[0];
  if (out) writeFileSync(out, `${lines.join('\n')}\n`);
  else process.stdout.write(`${lines.join('\n')}\n`);
}
