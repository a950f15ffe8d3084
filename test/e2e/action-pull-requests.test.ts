/**
 * The bundled Action on `pull-requests`: the PRs are read from the local GitHub REST stand-in
 * (`GITHUB_API_URL`), the repositories cloned over HTTP from a token-protected git server, the
 * linked change taken from a `repository_dispatch` event when no input names it. The token must
 * be masked and never reach the report. `context` puts repositories without a PR into the
 * workspace, at a named ref or at their default branch, as the App's hand-off asks.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { type ActionRun, errors, readReport, runAction, usePullRequestWorld } from './action-harness.ts';

const TOKEN = 'ghp_actionTestToken123';

const world = usePullRequestWorld('tandem-action-prs-', TOKEN);

const run = (inputs: Record<string, string>, env: Record<string, string> = {}): Promise<ActionRun> =>
  runAction({
    workspace: world.workspace,
    runnerDir: world.runnerDir,
    inputs,
    env: { GITHUB_API_URL: world.api.url, TANDEM_CACHE_DIR: path.join(world.dir, 'cache'), ...env },
  });

describe('the Action on pull requests', () => {
  it('takes the linked change from a repository_dispatch payload and resolves it', async () => {
    const event = path.join(world.runnerDir, 'event.json');
    writeFileSync(
      event,
      JSON.stringify({
        action: 'tandem-evaluate',
        client_payload: { pull_requests: ['acme/schema#7', 'acme/api#7', 'acme/web#7'] },
      }),
    );
    const r = await run(
      { suite: 'suites/checkout/suite.yml', token: TOKEN, matrix: 'leave-one-out' },
      { GITHUB_EVENT_PATH: event, GITHUB_EVENT_NAME: 'repository_dispatch' },
    );
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.outputs.verdict).toBe('resolved');
    expect(r.outputs.resolved).toBe('true');
    // Every PR was read through the REST API with the token...
    const reads = world.api.requests.filter((q) => /^\/repos\/acme\/\w+\/pulls\/7$/.test(q.path));
    expect(reads.map((q) => q.path).sort()).toEqual([
      '/repos/acme/api/pulls/7',
      '/repos/acme/schema/pulls/7',
      '/repos/acme/web/pulls/7',
    ]);
    // ...and every repository fetched over HTTP with it (git asks anonymously first; the server
    // answers 401 and serves only requests carrying the token).
    for (const name of ['schema', 'api', 'web']) {
      expect(
        world.gitServer.requests.some((q) => q.path.startsWith(`/acme/${name}.git/`) && q.status === 200),
      ).toBe(true);
    }
    expect(world.gitServer.requests.filter((q) => q.status === 200).every((q) => q.authorized)).toBe(true);

    const reportText = readFileSync(r.outputs['report-path']!, 'utf8');
    const report = readReport(r.outputs['report-path']!);
    expect(report.name).toBe('linked change acme/schema#7 acme/api#7 acme/web#7');
    expect(report.matrix.mode).toBe('leave-one-out');
    expect(report.targets.map((t) => t.head?.kind)).toEqual(['merge', 'merge', 'merge']);
    expect(report.targets[0]?.url).toBe(`${world.gitServer.url}/acme/schema.git`);
    // The token is masked in the log and appears nowhere in what the step leaves behind.
    expect(r.commands).toContainEqual({ command: 'add-mask', properties: {}, message: TOKEN });
    expect(reportText).not.toContain(TOKEN);
    expect(r.summary).not.toContain(TOKEN);
    expect(r.summary).toContain('linked change acme/schema#7 acme/api#7 acme/web#7');
  });

  it('puts context repositories into the workspace: at the ref the App dispatched, or their default branch', async () => {
    // What the App dispatches: two PRs, and `acme/web` (no PR) at a pinned ref.
    const event = path.join(world.runnerDir, 'dispatch-context.json');
    writeFileSync(
      event,
      JSON.stringify({
        inputs: { 'pull-requests': 'acme/schema#7 acme/api#7', context: 'acme/web@multi-currency' },
      }),
    );
    const before = world.api.requests.length;
    const pinned = await run(
      { suite: 'suites/checkout/suite.yml', token: TOKEN, matrix: 'full' },
      { GITHUB_EVENT_PATH: event, GITHUB_EVENT_NAME: 'workflow_dispatch' },
    );
    expect(pinned.code, pinned.stdout + pinned.stderr).toBe(0);
    expect(pinned.outputs.verdict).toBe('resolved');
    const report = readReport(pinned.outputs['report-path']!);
    expect(report.targets.map((t) => t.repo)).toEqual(['acme/schema', 'acme/api']);
    expect(report.configurations).toHaveLength(4); // 2 targets: web is no configuration axis
    const webHead = execFileSync('git', ['rev-parse', 'multi-currency'], {
      cwd: path.join(world.gitRoot, 'acme', 'web.git'),
      encoding: 'utf8',
    }).trim();
    expect(report.context).toEqual([
      { repo: 'acme/web', url: `${world.gitServer.url}/acme/web.git`, ref: 'multi-currency', sha: webHead },
    ]);
    expect(readFileSync(pinned.outputs['report-path']!, 'utf8')).not.toContain(TOKEN);
    // The repository was read with the token for its clone URL; web has no PR to read.
    const reads = world.api.requests.slice(before).map((q) => q.path);
    expect(reads).toContain('/repos/acme/web');
    expect(reads).not.toContain('/repos/acme/web/pulls/7');

    // Without a ref: the default branch, which lacks web's half of the change.
    const tip = await run({
      'pull-requests': 'acme/schema#7 acme/api#7',
      context: 'acme/web',
      suite: 'suites/checkout/suite.yml',
      token: TOKEN,
      matrix: 'full',
    });
    expect(tip.outputs.verdict, tip.stdout + tip.stderr).toBe('unresolved');
    const atMain = readReport(tip.outputs['report-path']!);
    expect(atMain.context.map((c) => [c.repo, c.ref])).toEqual([['acme/web', 'main']]);
    const full = atMain.configurations.find((c) => c.role === 'full')!;
    expect(full.tests.filter((t) => t.status !== 'passed').map((t) => t.id)).toEqual([
      expect.stringContaining('renders the currency'),
    ]);
  });

  it('a context repository that cannot be read, or that has a PR too, is bad input naming "context"', async () => {
    const missing = await run({
      'pull-requests': 'acme/schema#7',
      context: 'acme/nowhere',
      suite: 'suites/checkout/suite.yml',
      token: TOKEN,
    });
    expect(missing.outputs.verdict).toBe('error');
    expect(errors(missing).at(-1)?.message).toMatch(
      /^Tandem: bad input, no verdict: input "context": acme\/nowhere: 404/,
    );
    const both = await run({
      'pull-requests': 'acme/schema#7 acme/web#7',
      context: 'acme/web@main',
      suite: 'suites/checkout/suite.yml',
      token: TOKEN,
    });
    expect(errors(both).at(-1)?.message).toBe(
      'Tandem: bad input, no verdict: input "context": acme/web has a pull request in input "pull-requests"; a repository is either a target or context',
    );
  });

  it('a token that cannot read a PR is bad input naming "pull-requests"', async () => {
    const r = await run({
      'pull-requests': 'acme/schema#7\nacme/api#7',
      suite: 'suites/checkout/suite.yml',
      token: 'ghp_wrong',
    });
    expect(r.code).toBe(1);
    expect(r.outputs.verdict).toBe('error');
    expect(errors(r).at(-1)?.message).toMatch(
      /^Tandem: bad input, no verdict: input "pull-requests": acme\/(schema|api)#7: 401 Bad credentials/,
    );
  });

  it('waits out a secondary rate limit; one that persists is a rate limit, not an unreadable repository', async () => {
    // One limited answer: waited out, then the run goes on to its (bad) context input.
    world.api.rateLimitNext(1, 'secondary');
    const waited = await run({
      'pull-requests': 'acme/schema#7',
      context: 'acme/nowhere',
      suite: 'suites/checkout/suite.yml',
      token: TOKEN,
    });
    expect(waited.stdout).toMatch(
      /tandem: GitHub secondary rate limit on GET \S+\/repos\/acme\/schema\/pulls\/7; waiting 1 s/,
    );
    expect(errors(waited).at(-1)?.message).toMatch(/input "context": acme\/nowhere: 404/);

    world.api.rateLimitNext(100, 'secondary');
    const limited = await run({
      'pull-requests': 'acme/schema#7',
      suite: 'suites/checkout/suite.yml',
      token: TOKEN,
    });
    world.api.rateLimitNext(0);
    expect(limited.code).toBe(1);
    expect(limited.outputs.verdict).toBe('error');
    const last = errors(limited).at(-1)?.message;
    expect(last).toMatch(
      /^Tandem: infrastructure error, not a verdict on the code \(fetch\): acme\/schema#7: GitHub's secondary rate limit for this token is still exceeded/,
    );
    expect(last).not.toContain('does the "token" input read');
  });

  it('a PR that does not exist is named; a malformed line is refused before any request', async () => {
    const missing = await run({
      'pull-requests': 'acme/schema#99',
      suite: 'suites/checkout/suite.yml',
      token: TOKEN,
    });
    expect(errors(missing).at(-1)?.message).toMatch(/input "pull-requests": acme\/schema#99: 404/);
    const before = world.api.requests.length;
    const bad = await run({
      'pull-requests': 'acme/schema 7',
      suite: 'suites/checkout/suite.yml',
      token: TOKEN,
    });
    expect(errors(bad).at(-1)?.message).toBe(
      'Tandem: bad input, no verdict: input "pull-requests": expected lines of "owner/repo#N", got "acme/schema"',
    );
    expect(world.api.requests.length).toBe(before);
  });
});
