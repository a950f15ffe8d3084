/**
 * `tandem bench`'s registration, one phase per subcommand (src/cli/commands/bench.ts): each is
 * there with its required options and an example in its help page.
 */
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { registerBench } from '../../src/cli/commands/bench.ts';

function benchCommand(): Command {
  const program = new Command('tandem');
  registerBench(program, { signal: new AbortController().signal });
  return program.commands.find((c) => c.name() === 'bench')!;
}

describe('tandem bench registration', () => {
  const bench = benchCommand();
  const sub = (name: string) => bench.commands.find((c) => c.name() === name)!;
  const required = (name: string) =>
    sub(name)
      .options.filter((o) => o.mandatory)
      .map((o) => o.long);

  it('registers every subcommand, each with an example in its help', () => {
    expect(bench.commands.map((c) => c.name())).toEqual([
      'run',
      'validate',
      'combine',
      'derive',
      'report',
      'regrade',
      'compare',
    ]);
    for (const c of bench.commands) {
      let help = '';
      c.configureOutput({ writeOut: (s) => (help += s) });
      c.outputHelp();
      expect(help, c.name()).toMatch(/Examples?:\n {2}tandem bench /);
    }
  });

  it('keeps each subcommand’s required options and the engine flags where the engine runs', () => {
    expect(required('run')).toEqual(['--instances', '--predictions', '--run-id']);
    expect(required('validate')).toEqual(['--out']);
    expect(required('combine')).toEqual(['--instances', '--out']);
    expect(required('regrade')).toEqual(['--instances']);
    expect(sub('combine').aliases()).toEqual(['merge']);
    for (const name of ['run', 'validate'])
      expect(sub(name).options.map((o) => o.long)).toEqual(expect.arrayContaining(['--retries', '--quiet']));
  });
});
