/**
 * Private code stays private (issue 17, finding 4): a public PR links a private repository's PR.
 * Against the App over HTTP with signed webhooks, the GitHub stand-in and the real engine
 * (Docker): the public PR's evaluation never includes the private repository (as a member or as
 * context), and nothing it publishes — comment, check, JSON report — names it or its head. The
 * private PR's own set may need the public one, and is reported only on the private PR. A suite
 * that opts in (`share_private`) evaluates them together.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  API_OK,
  ObservedExecutor,
  openPull,
  orgConfig,
  sendPull,
  settle,
  stickyComments,
  tandemChecks,
  useWorld,
  type World,
} from '../e2e/app-harness.ts';
import { makeTempDir } from '../helpers/git-fixtures.ts';

const startWorld = useWorld();

/** A private schema change whose content must not reach a public page. */
const PRIVATE_SCHEMA = {
  'index.js': "module.exports = { fields: ['id', 'total'], codename: 'PRIVATE-CODENAME-7Q' };\n",
};

async function world(config?: string): Promise<{ w: World; executor: ObservedExecutor }> {
  const executor = new ObservedExecutor(join(await makeTempDir('tandem-privacy-'), 'cache'));
  const w = await startWorld({
    executor,
    privateRepos: ['schema'],
    publicUrl: 'https://tandem.example.test/',
    ...(config ? { config } : {}),
  });
  return { w, executor };
}

/** Everything the App published about a public PR: its comment, its checks, its JSON report. */
async function publishedFor(w: World, repo: string): Promise<string> {
  const comment = stickyComments(w, repo, 1)[0]?.body ?? '';
  const checks = JSON.stringify(tandemChecks(w, repo).map((c) => c.output));
  const link =
    /\[JSON report\]\(<https:\/\/tandem\.example\.test(\/tandem\/reports\/[\w-]{22}\.json)>\)/.exec(comment);
  expect(link, comment).not.toBeNull();
  const report = await (await fetch(`${w.app.url}${link![1]}`)).text();
  return [comment, checks, report].join('\n');
}

const reposOf = (executor: ObservedExecutor, i: number) => ({
  targets: executor.runs[i]!.spec.targets.map((t) => t.repo).sort(),
  context: executor.runs[i]!.spec.context.map((c) => c.repo).sort(),
});

describe('attack: a public PR links a private one', () => {
  it('never evaluates, names or reports the private repository on the public PR', async () => {
    const { w, executor } = await world();
    const secret = await openPull(w, 'schema', PRIVATE_SCHEMA, 'Internal field.');
    await openPull(w, 'api', { 'index.js': API_OK }, 'Depends-On: acme/schema#1');
    await sendPull(w, 'opened', 'api', 1);
    await settle(w);

    // The public PR was evaluated without the private repository, not even as context.
    expect(executor.runs).toHaveLength(1);
    expect(reposOf(executor, 0)).toEqual({ targets: ['acme/api'], context: ['acme/web'] });
    const published = await publishedFor(w, 'api');
    expect(published).not.toContain('acme/schema');
    expect(published).not.toContain(secret.head.sha.slice(0, 7));
    expect(published).not.toContain('PRIVATE-CODENAME-7Q');

    // The private PR's own set may need the public PR; it is reported on the private PR only.
    await sendPull(w, 'opened', 'schema', 1);
    await settle(w);
    expect(executor.runs).toHaveLength(2);
    expect(reposOf(executor, 1).targets).toEqual(['acme/api', 'acme/schema']);
    expect(tandemChecks(w, 'schema', secret.head.sha).map((c) => c.conclusion)).toEqual(['success']);
    expect(tandemChecks(w, 'api')).toHaveLength(1);
    expect(await publishedFor(w, 'api')).not.toContain('acme/schema');
  });

  it('a suite that opts in (share_private) evaluates them together', async () => {
    const config = orgConfig().replace(
      'path: suites/checkout/suite.yml',
      'path: suites/checkout/suite.yml\n    share_private: true',
    );
    const { w, executor } = await world(config);
    await openPull(w, 'schema', PRIVATE_SCHEMA, 'Internal field.');
    const api = await openPull(w, 'api', { 'index.js': API_OK }, 'Depends-On: acme/schema#1');
    await sendPull(w, 'opened', 'api', 1);
    await settle(w);
    expect(reposOf(executor, 0).targets).toEqual(['acme/api', 'acme/schema']);
    expect(tandemChecks(w, 'api', api.head.sha).map((c) => c.conclusion)).toEqual(['success']);
  });
});
