/**
 * The Action reference exists: every Tandem step of the example workflows, and of the workflow
 * `tandem init` writes, uses `./.github/actions/tandem` after a checkout, and `tandem action
 * vendor` (the built CLI) writes exactly that folder: an action.yml whose `runs.main` is a file
 * beside it. The benchmark workflow installs the CLI from the tarball name `npm pack` gives.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { REPO_ROOT, runCli } from '../helpers/example-cases.ts';
import { makeTempDir, removeTempDir } from '../helpers/git-fixtures.ts';

type Step = { uses?: string; run?: string; with?: Record<string, unknown> };
type Workflow = { jobs: Record<string, { steps: Step[] }> };
const EXAMPLES = path.join(REPO_ROOT, 'examples', 'workflows');
const loadWorkflow = (file: string): Workflow => YAML.parse(readFileSync(file, 'utf8'));

let dir: string;
beforeAll(async () => {
  dir = await makeTempDir('tandem-action-ref-');
});
afterAll(() => removeTempDir(dir));

/** Every non-`actions/*` reference of a workflow, with whether a checkout precedes it in its job. */
function ownReferences(wf: Workflow): Array<{ uses: string; afterCheckout: boolean }> {
  return Object.values(wf.jobs).flatMap((job) =>
    job.steps.flatMap((s, i) =>
      s.uses && !s.uses.startsWith('actions/')
        ? [
            {
              uses: s.uses,
              afterCheckout: job.steps.slice(0, i).some((p) => p.uses?.startsWith('actions/checkout@')),
            },
          ]
        : [],
    ),
  );
}

/** The action a local reference names, in the checkout `root`: its runs.main must exist. */
function expectResolves(root: string, uses: string): void {
  expect(uses.startsWith('./'), `${uses}: a path in the evaluator repository`).toBe(true);
  const actionDir = path.join(root, uses);
  const action = YAML.parse(readFileSync(path.join(actionDir, 'action.yml'), 'utf8'));
  expect(action.runs.using).toBe('node24');
  expect(existsSync(path.join(actionDir, action.runs.main)), action.runs.main).toBe(true);
  expect(existsSync(path.join(actionDir, 'dist', 'templates', 'report.md.hbs'))).toBe(true);
}

describe('the Action reference', () => {
  it('`tandem action vendor` writes the folder every example workflow uses', async () => {
    const checkout = path.join(dir, 'evaluator');
    await import('node:fs/promises').then((fs) => fs.mkdir(checkout));
    const r = await runCli(['action', 'vendor', '--dir', checkout]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('uses: ./.github/actions/tandem');

    const workflows = readdirSync(EXAMPLES).filter((f) => f.endsWith('.yml') && f !== 'tandem-bench.yml');
    expect(workflows.length).toBeGreaterThan(1);
    for (const file of workflows) {
      const refs = ownReferences(loadWorkflow(path.join(EXAMPLES, file)));
      expect(refs.length, file).toBeGreaterThan(0);
      for (const ref of refs) {
        expect(ref.afterCheckout, `${file}: ${ref.uses} needs the checkout first`).toBe(true);
        expectResolves(checkout, ref.uses);
      }
    }
  });

  it('the workflow `tandem init` writes uses the Action it writes beside it', async () => {
    const out = path.join(dir, 'init');
    const r = await runCli(['init', 'acme/api', '--evaluator', 'acme/evaluator', '--dir', out]);
    expect(r.code, r.stderr).toBe(0);
    const evaluator = path.join(out, 'acme', 'evaluator');
    const refs = ownReferences(loadWorkflow(path.join(evaluator, '.github', 'workflows', 'tandem.yml')));
    expect(refs.map((x) => x.uses)).toEqual(['./.github/actions/tandem']);
    for (const ref of refs) expectResolves(evaluator, ref.uses);
  });

  it('the benchmark workflow installs the CLI from the tarball `npm pack` names', () => {
    const pkg = JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8'));
    const wf = loadWorkflow(path.join(EXAMPLES, 'tandem-bench.yml'));
    expect(ownReferences(wf)).toEqual([]);
    const installs = Object.values(wf.jobs).flatMap((j) =>
      j.steps.flatMap((s) => [...(s.run ?? '').matchAll(/npm install -g (\S+)/g)].map((m) => m[1]!)),
    );
    expect(installs.length).toBe(Object.keys(wf.jobs).length);
    for (const spec of installs) {
      const pattern = new RegExp(`^${path.basename(spec).replace('.', '\\.').replace('*', '.*')}$`);
      expect(`${pkg.name}-${pkg.version}.tgz`).toMatch(pattern);
    }
    // The package ships what `action vendor` copies.
    expect(pkg.files).toEqual(expect.arrayContaining(['action.yml', 'dist/']));
  });
});
