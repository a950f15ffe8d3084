/**
 * The App hand-off to GitHub Actions end to end (`executor: actions`): the App dispatches the
 * evaluator's workflow, links every member's check run to the workflow run named in
 * `workflow_run` events, and on completion reads the `tandem-report` artifact (a real zip of a
 * report the bundled Action produced with the real engine) and publishes it like a local one.
 * The suite's repository without a PR (`acme/web`) travels as context, so the runner evaluates the
 * workspace a local run would. A run without a report, an unreadable report, an unknown
 * evaluation and a restart while the run is pending are covered too. The stand-in runs no
 * workflows: the test plays the runner.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { INFRA_TITLE } from '../../src/github/check-runs.ts';
import { type Scenario, useScenario } from '../helpers/app-scenario.ts';
import { examplePayload } from '../support/webhook-sender.ts';
import { type ActionRun, readReport, runAction } from './action-harness.ts';
import { API_OK, HIDDEN_TEST, orgConfig, SCHEMA_OK, SUITE } from './app-harness.ts';

const scenario = useScenario();

const ACTIONS_CONFIG = orgConfig('executor: actions\nactions: { workflow: tandem.yml }\n');
/**
 * The whole hidden test, `web` case included: `acme/web` has no PR, so it reaches the runner's
 * workspace only as context (the dispatch's `context` input), as it does in a local run.
 */
const HIDDEN = HIDDEN_TEST;
type Run = ReturnType<Scenario['standIn']['addWorkflowRun']>;

/** A world on `executor: actions` with the 2-PR change schema ← api opened; returns the dispatch inputs. */
async function dispatchedChange(): Promise<{ world: Scenario; inputs: Record<string, string>; id: number }> {
  const world = await scenario().start();
  world.standIn.setFile('acme', '.github', '.github/tandem.yml', ACTIONS_CONFIG);
  world.standIn.setFile('acme', 'tandem-suites', 'suites/checkout/hidden/checkout.test.js', HIDDEN);
  await world.openPull('schema', SCHEMA_OK, 'Adds total.');
  await world.openPull('api', { 'index.js': API_OK }, 'Uses total.\n\nDepends-On: acme/schema#1');
  await world.sendPull('opened', 'schema', 1);
  await world.sendPull('opened', 'api', 1);
  world.app.service.flush();
  await world.until(() => world.standIn.dispatches.length > 0, 'the workflow dispatch');
  const d = world.standIn.dispatches[0]!;
  if (d.kind !== 'workflow') throw new Error('expected a workflow_dispatch');
  const inputs = d.inputs as Record<string, string>;
  return { world, inputs, id: Number(inputs['evaluation-id']) };
}

function addRun(
  world: Scenario,
  id: number,
  extra: Partial<Parameters<Scenario['standIn']['addWorkflowRun']>[0]> = {},
) {
  return world.standIn.addWorkflowRun({
    owner: 'acme',
    repo: 'tandem-suites',
    workflowId: 'tandem.yml',
    displayTitle: `Tandem #${id} acme/schema#1 acme/api#1`,
    status: 'in_progress',
    ...extra,
  });
}

/** A signed `workflow_run` delivery built from the webhook examples around the stand-in's run. */
function sendWorkflowRun(world: Scenario, action: 'requested' | 'in_progress' | 'completed', run: Run) {
  const base = examplePayload('workflow_run', action === 'completed' ? 'completed' : 'requested');
  const repository = world.standIn.repository('acme', 'tandem-suites') as unknown as Record<string, unknown>;
  return world.sender.send('workflow_run', {
    ...base,
    action,
    workflow: { ...(base.workflow as object), name: run.name, path: run.path },
    workflow_run: { ...(base.workflow_run as object), ...run },
    repository,
    organization: repository.owner,
    sender: repository.owner,
    installation: { id: world.installationId, node_id: 'MDIzOkludGVncmF0aW9uSW5zdGFsbGF0aW9uMQ==' },
  });
}

/** What `examples/workflows/tandem.yml` does on a runner: the bundled Action on the dispatched inputs. */
async function runWorkflow(world: Scenario, inputs: Record<string, string>): Promise<ActionRun> {
  const workspace = join(world.root, 'evaluator');
  const runnerDir = join(world.root, 'runner');
  mkdirSync(join(workspace, 'suites', 'checkout', 'hidden'), { recursive: true });
  mkdirSync(runnerDir, { recursive: true });
  writeFileSync(join(workspace, 'suites', 'checkout', 'suite.yml'), SUITE);
  writeFileSync(join(workspace, 'suites', 'checkout', 'hidden', 'checkout.test.js'), HIDDEN);
  const event = join(runnerDir, 'event.json');
  writeFileSync(event, JSON.stringify({ inputs, ref: 'refs/heads/main' }));
  return runAction({
    workspace,
    runnerDir,
    inputs: {
      suite: inputs.suite!,
      matrix: inputs.matrix!,
      token: world.standIn.mintToken(world.installationId),
    },
    env: {
      GITHUB_EVENT_NAME: 'workflow_dispatch',
      GITHUB_EVENT_PATH: event,
      GITHUB_API_URL: world.standIn.url,
      TANDEM_CACHE_DIR: join(world.root, 'action-cache'),
    },
  });
}

/** A real zip (Info-ZIP, deflated) holding one file, as upload-artifact would. */
function zipOf(world: Scenario, name: string, content: string): Buffer {
  const dir = join(world.root, `zip-${Date.now()}`);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, name), content);
  execFileSync('zip', ['-q', '-j', join(dir, 'a.zip'), join(dir, name)]);
  return readFileSync(join(dir, 'a.zip'));
}

const members = [
  ['schema', 1],
  ['api', 1],
] as const;

describe('App: hand-off to GitHub Actions', () => {
  it('dispatches the workflow, links the run, and publishes the report artifact on completion', async () => {
    const { world, inputs, id } = await dispatchedChange();
    const d = world.standIn.dispatches[0]!;
    expect(d).toMatchObject({
      kind: 'workflow',
      owner: 'acme',
      repo: 'tandem-suites',
      workflowId: 'tandem.yml',
    });
    expect(d.kind === 'workflow' && d.ref).toBe('main');
    expect(inputs['pull-requests']!.split(' ').sort()).toEqual(['acme/api#1', 'acme/schema#1']);
    // The suite's repository without a PR, at its default branch, as a local run takes it.
    expect(inputs).toMatchObject({
      suite: 'suites/checkout/suite.yml',
      matrix: 'full',
      context: 'acme/web@main',
    });
    expect(id).toBeGreaterThan(0);
    // The webhooks' config read and the evaluation's: the hand-off needs no read of its own.
    const configReads = world.standIn.requests.filter((q) =>
      q.path.startsWith('/repos/acme/.github/contents/'),
    );
    expect(configReads).toHaveLength(2);
    // Clone URLs and tokens stay in the App.
    expect(JSON.stringify(d)).not.toMatch(/x-access-token|ghs_|127\.0\.0\.1/);
    await world.until(
      () =>
        members.every(
          ([repo]) => world.tandemChecks(repo)[0]?.output.title === 'Tandem: dispatched to GitHub Actions',
        ),
      'the checks to say dispatched',
    );

    // A run for an evaluation the App is not waiting for changes nothing.
    const stranger = addRun(world, id + 100, { status: 'completed', conclusion: 'failure' });
    expect((await sendWorkflowRun(world, 'completed', stranger)).status).toBe(200);

    const run = addRun(world, id);
    expect((await sendWorkflowRun(world, 'in_progress', run)).status).toBe(200);
    await world.until(
      () => members.every(([repo]) => world.tandemChecks(repo)[0]?.details_url === run.html_url),
      'the checks to link the run',
    );
    for (const [repo] of members) {
      const c = world.tandemChecks(repo)[0]!;
      expect(c.status).toBe('in_progress');
      expect(c.output.summary).toContain(`Evaluating in GitHub Actions: ${run.html_url}`);
    }

    // The runner evaluates and uploads the merged report; then the run completes.
    const action = await runWorkflow(world, inputs);
    expect(action.outputs.verdict, action.stderr + action.stdout).toBe('resolved');
    const reportText = readFileSync(action.outputs['report-path']!, 'utf8');
    const handedOff = readReport(action.outputs['report-path']!);
    expect(handedOff.outcome).toBe('resolved');
    expect(handedOff.context.map((c) => [c.repo, c.ref])).toEqual([['acme/web', 'main']]);
    expect(handedOff.context[0]!.sha).toBe(world.repos.web!.sha);
    world.standIn.addArtifact({
      owner: 'acme',
      repo: 'tandem-suites',
      runId: run.id,
      name: 'tandem-report',
      zip: zipOf(world, 'tandem-report.json', reportText),
    });
    const done = world.standIn.updateWorkflowRun(run.id, { status: 'completed', conclusion: 'success' });
    expect((await sendWorkflowRun(world, 'completed', done)).status).toBe(200);
    await world.settle();

    for (const [repo, n] of members) {
      const checks = world.tandemChecks(repo);
      expect(checks).toHaveLength(1);
      const c = checks[0]!;
      expect(c.status).toBe('completed');
      expect(c.conclusion).toBe('success');
      expect(c.details_url).toBe(run.html_url);
      const statuses = (c.history as Array<{ status?: string }>).map((h) => h.status).filter(Boolean);
      expect(statuses[0]).toBe('queued');
      expect(statuses.at(-1)).toBe('completed');
      expect(new Set(statuses.slice(1, -1))).toEqual(new Set(['in_progress']));
      expect(c.output.summary).toContain('acme/schema#1');
      const comments = world.stickyComments(repo, n);
      expect(comments).toHaveLength(1);
      expect(comments[0]!.body).toMatch(/^✅ \*\*Resolved\*\* — /m);
      expect(comments[0]!.body).toMatch(
        /acme\/schema#1 \[`[0-9a-f]{7}`\]\(<[^>]+>\) → acme\/api#1 \[`[0-9a-f]{7}`\]\(<[^>]+>\)/,
      );
    }
    expect(world.stickyComments('schema', 1)[0]!.body).toBe(world.stickyComments('api', 1)[0]!.body);
    expect(world.standIn.dispatches).toHaveLength(1);
    const state = (await world.app.service.store.evaluations.get(id))?.state;
    expect(state).toBe('published');
  });

  it('makes a run that fails without a report an infrastructure error on every member', async () => {
    const { world, id } = await dispatchedChange();
    const run = addRun(world, id, { status: 'completed', conclusion: 'failure' });
    expect((await sendWorkflowRun(world, 'completed', run)).status).toBe(200);
    await world.settle();
    for (const [repo, n] of members) {
      const c = world.tandemChecks(repo)[0]!;
      expect(c.status).toBe('completed');
      expect(c.conclusion).toBe('failure');
      expect(c.output.title).toBe(INFRA_TITLE);
      expect(c.output.summary).toContain(
        `${run.html_url} ended failure without a \`tandem-report\` artifact`,
      );
      const last = (c.history as Array<{ actions?: Array<{ identifier: string }> }>).at(-1)!;
      expect(last.actions?.map((a) => a.identifier)).toEqual(['rerun']);
      const comment = world.stickyComments(repo, n)[0]!;
      expect(comment.body).toMatch(/^⚠️ \*\*Infrastructure error\*\* — not a verdict on the code: /m);
      expect(comment.body).not.toContain('not resolved');
    }
    expect((await world.app.service.store.evaluations.get(id))?.state).toBe('failed');
  });

  it('after a restart waits for the dispatched run instead of dispatching again, and rejects an unreadable report', async () => {
    const { world, id } = await dispatchedChange();
    await world.until(
      () => world.tandemChecks('api')[0]?.output.title === 'Tandem: dispatched to GitHub Actions',
      'the dispatch to be shown',
    );
    expect((await world.app.service.store.evaluations.get(id))?.state).toBe('running');
    // The run completes while the App is down: its webhook is lost; the artifact is no report.
    const run = addRun(world, id, { status: 'completed', conclusion: 'success' });
    world.standIn.addArtifact({
      owner: 'acme',
      repo: 'tandem-suites',
      runId: run.id,
      name: 'tandem-report',
      zip: zipOf(world, 'tandem-report.json', '{"schemaVersion": 1}'),
    });
    await world.restartApp();
    await world.settle();
    expect(world.standIn.dispatches).toHaveLength(1);
    for (const [repo] of members) {
      const checks = world.tandemChecks(repo);
      expect(checks).toHaveLength(1); // the resumed evaluation kept its check run
      const c = checks[0]!;
      expect(c.conclusion).toBe('failure');
      expect(c.output.title).toBe(INFRA_TITLE);
      expect(c.output.summary).toContain('artifact is not a Tandem report');
      expect(c.details_url).toBe(run.html_url);
    }
  });
});
