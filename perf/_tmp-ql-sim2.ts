import { simulate } from '../src/core/queue-simulation/simulate.ts';
import { queueFigures } from '../src/core/queue-simulation/figures.ts';
import { TraceSetSchema } from '../src/core/queue-simulation/trace.schema.ts';
import { generateQueueTrace, DEFAULT_TRACE } from './generate-queue-trace.ts';
for (const ia of [0.5, 0.8, 1.0, 1.25, 1.5]) for (const seed of [28, 1, 2]) {
  const trace = generateQueueTrace({ ...DEFAULT_TRACE, interarrival: ia, seed }).map((l) => TraceSetSchema.parse(JSON.parse(l)));
  const q = queueFigures(trace, simulate(trace, { speculation: 4, retries: 2 }));
  const s = queueFigures(trace, simulate(trace, { speculation: 4, retries: 2, serial: true }));
  const f = (x: any) => `p50 ${x.p50.toFixed(2)} p95 ${x.p95.toFixed(2)} ev/l ${x.evaluationsPerLanded.toFixed(2)} wasted ${x.wasted} innoc ${x.innocentEvictions} landed ${x.landed} ev ${x.evicted} unf ${x.unfinished}`;
  console.log(`ia ${ia} seed ${seed}\n  queue  ${f(q)}\n  serial ${f(s)}`);
}
