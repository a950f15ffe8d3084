/**
 * Linked changes of N pull requests graded the way the engine grades them (planMatrix + grade),
 * for the comment tests: each repository has one F2P test that passes only when every PR is
 * applied (a jointly necessary change) and one P2P test. `unresolved` makes the full
 * configuration fail repo 0's F2P test (node's JUnit naming, `group::::name`) and regress the
 * last repository's P2P test.
 */
import { createHash } from 'node:crypto';
import { grade } from '../../src/core/grading.ts';
import type { MatrixMode } from '../../src/core/matrix-mode.ts';
import { planMatrix } from '../../src/core/matrix-plan.ts';
import type { PullInfo } from '../../src/core/pull-request.schema.ts';
import { REPORT_SCHEMA_VERSION, type Report } from '../../src/core/report.schema.ts';
import type { ConfigurationRun } from '../../src/core/run.schema.ts';
import type { LinkedChangeView } from '../../src/report/linked-change.ts';

const NAMES = ['api', 'web', 'cli', 'schema', 'worker', 'billing', 'search', 'mobile'];

export const repoNames = (n: number): string[] => NAMES.slice(0, n).map((r) => `acme/${r}`);
const sha = (s: string) => createHash('sha1').update(s).digest('hex');
/** Tandem's merge of a PR head onto its base: never to be quoted to a reader. */
export const mergeSha = (repo: string) => sha(`merge:${repo}`);
export const headShaOf = (repo: string) => sha(`head:${repo}`);
export const baseShaOf = (repo: string) => sha(`base:${repo}`);
const f2p = (repo: string) => `${repo.slice(5)}::::accepts the new field from the linked change`;
const p2p = (repo: string) => `${repo.slice(5)}::Existing::keeps working`;

/** Variants: a target the change does not need; a target the suite has no test for. */
export interface LinkedReportOptions {
  /** Every F2P test passes once all the other targets are applied: this one is unnecessary. */
  needless?: string;
  /** No test group reports for this repository. */
  untested?: string;
}

export function linkedReport(
  n: number,
  outcome: 'resolved' | 'unresolved',
  mode: MatrixMode = 'full',
  opts: LinkedReportOptions = {},
): Report {
  const targets = repoNames(n);
  const needed = targets.filter((t) => t !== opts.needless);
  const plan = planMatrix(targets, mode);
  const runs: ConfigurationRun[] = plan.configurations.map((c) => ({
    id: c.id,
    applied: c.applied,
    attempt: 0,
    setup: [],
    cached: false,
    durationMs: 3_000 + 100 * c.applied.length,
    groups: targets.flatMap((repo, i) => {
      if (repo === opts.untested) return [];
      const full = needed.every((t) => c.applied.includes(t));
      const f2pOk = full && !(outcome === 'unresolved' && i === 0);
      const p2pOk = !(full && outcome === 'unresolved' && i === n - 1);
      const tests = [
        {
          id: f2p(repo),
          status: f2pOk ? ('passed' as const) : ('failed' as const),
          ...(f2pOk
            ? {}
            : {
                message: `AssertionError: expected 'total' to equal 'amount'\n  at ${repo}/test/field.test.js:12:5\n  at run`,
              }),
        },
        {
          id: p2p(repo),
          status: p2pOk ? ('passed' as const) : ('failed' as const),
          ...(p2pOk ? {} : { message: 'TypeError: Cannot read properties of undefined (reading "id")' }),
        },
      ];
      return [
        { name: repo.slice(5), repo, status: 'reported' as const, exitCode: 0, durationMs: 900, tests },
      ];
    }),
  }));
  const graded = grade({
    plan,
    runs,
    groups: targets.filter((r) => r !== opts.untested).map((repo) => ({ name: repo.slice(5), repo })),
  });
  return {
    ...graded,
    schemaVersion: REPORT_SCHEMA_VERSION,
    tool: { name: 'tandem', version: '0.1.0' },
    name: `add a field across ${n} repositories`,
    createdAt: '2026-01-01T00:00:00.000Z',
    durationMs: 95_000,
    sandbox: 'docker',
    suite: { name: 'new-field', hash: 'sha256:abc', image: 'tandem/sandbox:node20', imageId: 'sha256:def' },
    matrix: { requested: mode, mode: plan.mode, reruns: 0, planned: plan.configurations.map((c) => c.id) },
    targets: targets.map((repo) => ({
      repo,
      url: `https://github.com/${repo}.git`,
      // As the App names them: the base tip and the PR head by full SHA; the head state is
      // Tandem's own merge of the PR onto that tip, a commit that exists nowhere on GitHub.
      base: { ref: sha(`base:${repo}`), sha: sha(`base:${repo}`) },
      head: { ref: sha(`head:${repo}`), sha: mergeSha(repo), kind: 'merge' as const },
    })),
    context: [],
  };
}

export function linkedView(n: number): LinkedChangeView {
  const repos = repoNames(n);
  const members: PullInfo[] = repos.map((repo, i) => ({
    ref: { owner: 'acme', repo: repo.slice(5), number: 10 + i },
    state: 'open',
    title: 'new field',
    body: null,
    headSha: sha(`head:${repo}`),
    headRef: 'feature/new-field',
    baseSha: sha(`base:${repo}`),
    baseRef: 'main',
    repo,
    htmlUrl: `https://github.com/${repo}/pull/${10 + i}`,
    cloneUrl: `https://github.com/${repo}.git`,
  }));
  return {
    members,
    left: [],
    refused: [],
    mergeOrder: repos,
    checkRunUrl: 'https://github.com/acme/api/runs/4242',
    jsonReportUrl: 'https://tandem.example.com/reports/42.json',
  };
}
