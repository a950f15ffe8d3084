/** The 1-minute load average (what `uptime` prints) every 10 s while a benchmark runs: other work skews it. */
import os from 'node:os';

export interface LoadFigures {
  cores: number;
  before: number;
  after: number;
  mean: number;
  max: number;
}

export function sampleLoad(): { stop(): LoadFigures } {
  const samples = [os.loadavg()[0]!];
  const timer = setInterval(() => samples.push(os.loadavg()[0]!), 10_000);
  timer.unref();
  return {
    stop() {
      clearInterval(timer);
      samples.push(os.loadavg()[0]!);
      return {
        cores: os.availableParallelism(),
        before: samples[0]!,
        after: samples.at(-1)!,
        mean: samples.reduce((a, x) => a + x, 0) / samples.length,
        max: Math.max(...samples),
      };
    },
  };
}
