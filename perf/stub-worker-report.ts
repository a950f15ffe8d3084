/**
 * The report a stub worker answers for one configuration (perf/workers-stub-worker.ts,
 * perf/workers-latency.ts): the partial report of a change every target is needed for, bound to
 * the change the App sent (name, suite, repositories and URLs), as the App believes nothing else.
 */
import { urlWithoutCredentials } from '../src/core/credentials.ts';
import { planMatrix } from '../src/core/matrix-plan.ts';
import type { Report } from '../src/core/report.schema.ts';
import type { ConfigurationRunner } from '../src/engine/workers/run-job.ts';
import { id, reportFrom, simulate } from '../test/helpers/runs.ts';

type RunnerInput = Parameters<ConfigurationRunner>[0];

export function stubWorkerReport({
  bundle,
  configuration,
}: Pick<RunnerInput, 'bundle' | 'configuration'>): Report {
  const plan = planMatrix(
    bundle.targets.map((t) => t.repo),
    bundle.matrix,
  );
  // One test in each of the suite's groups: the App refuses a report with groups its suite lacks.
  const groups = bundle.suite.tests.map((t) => t.name);
  const all = simulate(plan, (a) =>
    Object.fromEntries(
      groups.map((g) => [id(g, 'works'), a.size === plan.targets.length ? 'passed' : 'failed'] as const),
    ),
  );
  const report = reportFrom({
    plan,
    runs: all.filter((r) => r.id === configuration),
    groups: groups.map((name) => ({ name })),
    shard: configuration,
  });
  const url = (u: string) => urlWithoutCredentials(u);
  return {
    ...report,
    name: bundle.name,
    suite: { ...report.suite, name: bundle.suite.name },
    targets: report.targets.map((t, i) => ({ ...t, url: url(bundle.targets[i]?.url ?? t.url) })),
    context: bundle.context.map((c) => ({ repo: c.repo, url: url(c.url), ref: c.ref, sha: 'c'.repeat(40) })),
  };
}
