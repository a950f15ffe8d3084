import { describe, expect, it } from 'vitest';
import { API_OK, type ObservedExecutor, orgConfig } from '../e2e/app-harness.ts';
import { type Scenario, useScenario } from '../helpers/app-scenario.ts';

const scenario = useScenario();

/** A private schema change whose content must not reach a public page. */
const PRIVATE_SCHEMA = {
  'index.js': "module.exports = { fields: ['id', 'total'], codename: 'PRIVATE-CODENAME-7Q' };\n",
};

async function world(config?: string): Promise<{ w: Scenario; executor: ObservedExecutor }> {
  const w = await scenario()
    .observe()
    .with({
      privateRepos: ['schema'],
      publicUrl: 'https://tandem.example.test/',
      ...(config ? { config } : {}),
    })
    .start();
  return { w, executor: w.observed };
}

/** Everything the App published about a public PR: its comment, its checks, its JSON report. */
async function publishedFor(w: Scenario, repo: string): Promise<string> {
  const comment = w.stickyComments(repo, 1)[0]?.body ?? '';
  const checks = JSON.stringify(w.tandemChecks(repo).map((c) => c.output));
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
    const secret = await w.openPull('schema', PRIVATE_SCHEMA, 'Internal field.');
    await w.openPull('api', { 'index.js': API_OK }, 'Depends-On: acme/schema#1');
    await w.sendPull('opened', 'api', 1);
    await w.settle();

    // The public PR was evaluated without the private repository, not even as context.
    expect(executor.runs).toHaveLength(1);
    expect(reposOf(executor, 0)).toEqual({ targets: ['acme/api'], context: ['acme/web'] });
    const published = await publishedFor(w, 'api');
    expect(published).not.toContain('acme/schema');
    expect(published).not.toContain(secret.head.sha.slice(0, 7));
    expect(published).not.toContain('PRIVATE-CODENAME-7Q');

    // The private PR's own set may need the public PR; it is reported on the private PR only.
    await w.sendPull('opened', 'schema', 1);
    await w.settle();
    expect(executor.runs).toHaveLength(2);
    expect(reposOf(executor, 1).targets).toEqual(['acme/api', 'acme/schema']);
    expect(w.tandemChecks('schema', secret.head.sha).map((c) => c.conclusion)).toEqual(['success']);
    expect(w.tandemChecks('api')).toHaveLength(1);
    expect(await publishedFor(w, 'api')).not.toContain('acme/schema');
  });

  it('a suite that opts in (share_private) evaluates them together', async () => {
    const config = orgConfig().replace(
      'path: suites/checkout/suite.yml',
      'path: suites/checkout/suite.yml\n    share_private: true',
    );
    const { w, executor } = await world(config);
    await w.openPull('schema', PRIVATE_SCHEMA, 'Internal field.');
    const api = await w.openPull('api', { 'index.js': API_OK }, 'Depends-On: acme/schema#1');
    await w.sendPull('opened', 'api', 1);
    await w.settle();
    expect(reposOf(executor, 0).targets).toEqual(['acme/api', 'acme/schema']);
    expect(w.tandemChecks('api', api.head.sha).map((c) => c.conclusion)).toEqual(['success']);
  });
});
