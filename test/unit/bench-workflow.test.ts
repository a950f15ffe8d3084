/**
 * The example benchmark workflow agrees with the CLI: every `tandem bench` flag it passes is one
 * the subcommand declares, the shard count in `--shard i/N` matches the job matrix, and the merge
 * job reads the artifacts the shard jobs upload.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { registerBench } from '../../src/cli/commands/bench.ts';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const workflow = YAML.parse(readFileSync(path.join(ROOT, 'examples/workflows/tandem-bench.yml'), 'utf8'));
type Step = { run?: string; uses?: string; with?: Record<string, unknown> };
const steps = (job: string): Step[] => workflow.jobs[job].steps;

const program = new Command('tandem');
registerBench(program, { signal: new AbortController().signal });
const bench = program.commands.find((c) => c.name() === 'bench')!;

function benchCalls(job: string): Array<{ sub: string; flags: string[] }> {
  return steps(job)
    .flatMap((s) => (s.run ?? '').split('\n'))
    .join(' ')
    .split('tandem bench ')
    .slice(1)
    .map((call) => ({
      sub: call.split(/\s+/)[0]!,
      flags: [...call.matchAll(/(^|\s)(--[a-z-]+)/g)].map((m) => m[2]!),
    }));
}

describe('examples/workflows/tandem-bench.yml', () => {
  it('passes only flags the bench subcommands declare', () => {
    const calls = [...benchCalls('shard'), ...benchCalls('merge')];
    expect(calls.map((c) => c.sub)).toEqual(['run', 'combine', 'report']);
    for (const call of calls) {
      const sub = bench.commands.find((c) => c.name() === call.sub)!;
      const declared = sub.options.map((o) => o.long);
      for (const flag of call.flags) expect(declared, `bench ${call.sub} ${flag}`).toContain(flag);
    }
  });

  it('runs one job per shard and merges what they upload', () => {
    const shards: number[] = workflow.jobs.shard.strategy.matrix.shard;
    const run = steps('shard').find((s) => s.run?.includes('bench run'))!.run!;
    expect(run).toContain(`--shard \${{ matrix.shard }}/${shards.length}`);
    const upload = steps('shard').find((s) => s.uses?.startsWith('actions/upload-artifact'))!;
    const download = steps('merge').find((s) => s.uses?.startsWith('actions/download-artifact'))!;
    expect(String(upload.with!.name)).toMatch(/^bench-shard-/);
    expect(download.with!.pattern).toBe('bench-shard-*');
    expect(workflow.jobs.merge.needs).toBe('shard');
  });
});
