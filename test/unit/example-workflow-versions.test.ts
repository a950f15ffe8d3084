/**
 * The example workflows use the current majors of GitHub's own actions (the ones that run on
 * the Node 24 runtime), and the benchmark workflow builds the sandbox image its suites name with
 * a command the installed CLI has.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { registerImage } from '../../src/cli/commands/image.ts';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const DIR = path.join(ROOT, 'examples', 'workflows');
/** The first major of each action whose runtime is Node 24. */
const NODE24_MAJOR: Record<string, number> = {
  'actions/checkout': 5,
  'actions/setup-node': 5,
  'actions/cache': 5,
  // v5 and v6 only offered Node 24 (they ran on Node 20 by default); v6 and v7 run on it.
  'actions/upload-artifact': 6,
  'actions/download-artifact': 7,
  'actions/create-github-app-token': 2,
};
type Step = { run?: string; uses?: string };
const workflows = readdirSync(DIR).filter((f) => f.endsWith('.yml'));
const stepsOf = (file: string): Step[] =>
  Object.values(
    YAML.parse(readFileSync(path.join(DIR, file), 'utf8')).jobs as Record<string, { steps: Step[] }>,
  ).flatMap((j) => j.steps);

describe('examples/workflows', () => {
  it.each(workflows)('%s uses actions/* on their Node 24 majors', (file) => {
    const uses = stepsOf(file).flatMap((s) => (s.uses?.startsWith('actions/') ? [s.uses] : []));
    expect(uses.length).toBeGreaterThan(0);
    for (const u of uses) {
      const [name, ref] = u.split('@') as [string, string];
      expect(NODE24_MAJOR[name], `${u}: a major is listed here`).toBeDefined();
      expect(Number(ref.replace(/^v/, '')), u).toBeGreaterThanOrEqual(NODE24_MAJOR[name]!);
    }
  });

  it('the benchmark workflow builds its sandbox image before running, with a command the CLI has', () => {
    const steps = stepsOf('tandem-bench.yml');
    const build = steps.findIndex((s) => s.run?.includes('tandem image build node'));
    const run = steps.findIndex((s) => s.run?.includes('bench run'));
    expect(build).toBeGreaterThan(-1);
    expect(build).toBeLessThan(run);
    const program = new Command('tandem');
    registerImage(program);
    const image = program.commands.find((c) => c.name() === 'image')!;
    expect(image.commands.map((c) => c.name())).toContain('build');
  });
});
