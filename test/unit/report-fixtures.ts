/**
 * Sample reports for the report tests, built the way the engine builds them: hand-made
 * configuration runs → planMatrix() + grade() → metadata. Not a test file itself.
 */
import { createHash } from 'node:crypto';
import { expect } from 'vitest';
import { grade } from '../../src/core/grading.ts';
import type { MatrixMode } from '../../src/core/matrix-mode.ts';
import { planMatrix } from '../../src/core/matrix-plan.ts';
import { REPORT_SCHEMA_VERSION, type Report } from '../../src/core/report.schema.ts';
import type { ConfigurationRun, InfraErrorInfo, TestStatus } from '../../src/core/run.schema.ts';
import { API, CLI, WEB } from '../helpers/repos.ts';

export { API, CLI, WEB };

export const T = {
  create: 'api::Users::creates a user',
  health: 'api::Health::responds ok',
  submit: 'web::Form::submits the new field',
  render: 'web::Form::renders',
  parse: 'cli::Args::parses --user',
};

/** One group per repository short name, holding the tests whose id starts with it. */
export function runOf(
  id: string,
  applied: string[],
  tests: Record<string, TestStatus>,
  extra: Partial<ConfigurationRun> = {},
): ConfigurationRun {
  const groups = new Map<string, ConfigurationRun['groups'][number]>();
  for (const [testId, status] of Object.entries(tests)) {
    const name = testId.slice(0, testId.indexOf('::'));
    const g = groups.get(name) ?? {
      name,
      repo: `acme/${name}`,
      status: 'reported' as const,
      exitCode: 0,
      durationMs: 1200,
      tests: [],
    };
    g.tests.push({
      id: testId,
      status,
      ...(status === 'failed' ? { message: `SECRET-ASSERTION in ${testId}` } : {}),
    });
    if (status !== 'passed') g.exitCode = 1;
    groups.set(name, g);
  }
  return {
    id,
    applied,
    attempt: 0,
    setup: [],
    groups: [...groups.values()],
    cached: false,
    durationMs: 4200,
    ...extra,
  };
}

export interface SampleInput {
  name?: string;
  targets: string[];
  mode?: MatrixMode;
  runs: ConfigurationRun[];
  failToPass?: string[];
  passToPass?: string[];
  infraErrors?: InfraErrorInfo[];
  targetErrors?: Record<string, InfraErrorInfo>;
  reruns?: number;
  partial?: string;
}

export function buildReport(input: SampleInput): Report {
  const plan = planMatrix(input.targets, input.mode ?? 'full');
  const groups = input.targets.map((repo) => ({ name: repo.slice(repo.indexOf('/') + 1), repo }));
  const graded = grade({
    plan,
    runs: input.runs,
    groups,
    ...(input.failToPass ? { failToPass: input.failToPass } : {}),
    ...(input.passToPass ? { passToPass: input.passToPass } : {}),
    ...(input.infraErrors ? { infraErrors: input.infraErrors } : {}),
  });
  const sha = (repo: string, side: string) => createHash('sha1').update(`${side}:${repo}`).digest('hex');
  return {
    ...graded,
    schemaVersion: REPORT_SCHEMA_VERSION,
    tool: { name: 'tandem', version: '0.1.0' },
    name: input.name ?? 'add user field across api and web',
    createdAt: '2025-01-01T00:00:00.000Z',
    durationMs: 83_000,
    sandbox: 'docker',
    suite: { name: 'user-field', hash: 'sha256:abc', image: 'tandem/sandbox:node20', imageId: 'sha256:def' },
    matrix: {
      requested: input.mode ?? 'full',
      mode: plan.mode,
      reruns: input.reruns ?? 0,
      planned: plan.configurations.map((c) => c.id),
    },
    targets: input.targets.map((repo) => ({
      repo,
      url: `https://github.com/${repo}.git`,
      base: { ref: 'main', sha: sha(repo, 'base') },
      ...(input.targetErrors?.[repo]
        ? { error: input.targetErrors[repo] }
        : { head: { ref: `feature/${repo.slice(5)}`, sha: sha(repo, 'head'), kind: 'branch' as const } }),
    })),
    context: [
      { repo: 'acme/shared', url: 'https://github.com/acme/shared.git', ref: 'main', sha: 'c'.repeat(40) },
    ],
    ...(input.partial ? { partial: { shard: input.partial, runs: input.runs, groups } } : {}),
  };
}

/** Statuses of the four api and web tests: all passed but those given. */
function apiWebTests(failed: Array<keyof typeof T> = []): Record<string, TestStatus> {
  const tests = { [T.create]: 'passed', [T.health]: 'passed', [T.submit]: 'passed', [T.render]: 'passed' };
  for (const k of failed) tests[T[k]] = 'failed';
  return tests as Record<string, TestStatus>;
}

/** base, api alone and web alone of both two-target samples: api's PR fixes create, submit stays failed. */
function apiWebPartials(apiExtra: Partial<ConfigurationRun> = {}): ConfigurationRun[] {
  return [
    runOf('base', [], apiWebTests(['create', 'submit'])),
    runOf('api', [API], apiWebTests(['submit']), apiExtra),
    runOf('web', [WEB], apiWebTests(['create', 'submit'])),
  ];
}

/** api and web, both needed: base and partials fail, full passes. */
export function resolvedReport(): Report {
  return buildReport({
    targets: [API, WEB],
    runs: [...apiWebPartials({ cached: true }), runOf('full', [API, WEB], apiWebTests())],
  });
}

/** Full still fails web's F2P test and regresses api's P2P test. */
export function unresolvedReport(): Report {
  return buildReport({
    targets: [API, WEB],
    runs: [...apiWebPartials(), runOf('full', [API, WEB], apiWebTests(['health', 'submit']))],
  });
}

/** web's PR does not merge: full and web have no result. */
export function infraErrorReport(): Report {
  const conflict: InfraErrorInfo = {
    kind: 'merge-conflict',
    target: WEB,
    message: 'feature/web does not merge onto main',
    files: ['src/form.ts'],
  };
  return buildReport({
    targets: [API, WEB],
    runs: [
      runOf('base', [], { [T.create]: 'failed', [T.health]: 'passed', [T.submit]: 'failed' }),
      runOf('api', [API], { [T.create]: 'passed', [T.health]: 'passed', [T.submit]: 'failed' }),
      runOf('web', [WEB], {}, { infraError: { ...conflict, configuration: 'web' } }),
      runOf('full', [API, WEB], {}, { infraError: { ...conflict, configuration: 'full' } }),
    ],
    targetErrors: { [WEB]: conflict },
  });
}

/** Three targets in leave-one-out mode; cli's PR is not needed. */
export function leaveOneOutReport(): Report {
  const all = { [T.create]: 'passed', [T.submit]: 'passed', [T.parse]: 'passed' } as const;
  return buildReport({
    targets: [API, WEB, CLI],
    mode: 'leave-one-out',
    failToPass: [T.create, T.submit],
    passToPass: [T.parse],
    runs: [
      runOf('base', [], { [T.create]: 'failed', [T.submit]: 'failed', [T.parse]: 'passed' }),
      runOf('web+cli', [WEB, CLI], { ...all, [T.create]: 'failed' }),
      runOf('api+cli', [API, CLI], { ...all, [T.submit]: 'failed' }),
      runOf('api+web', [API, WEB], all),
      runOf('full', [API, WEB, CLI], all),
    ],
  });
}

/** Full run twice (reruns: 1): web's F2P test passes once and fails once. */
export function flakyReport(): Report {
  const base = { [T.create]: 'failed', [T.submit]: 'failed' } as const;
  return buildReport({
    targets: [API, WEB],
    reruns: 1,
    runs: [
      runOf('base', [], base),
      runOf('api', [API], { ...base, [T.create]: 'passed' }),
      runOf('web', [WEB], { ...base, [T.submit]: 'passed' }),
      runOf('full', [API, WEB], { [T.create]: 'passed', [T.submit]: 'passed' }),
      runOf('full', [API, WEB], { [T.create]: 'passed', [T.submit]: 'failed' }, { attempt: 1 }),
    ],
  });
}

/** `count` F2P tests in api, all failing in full: exercises capping and trimming. */
export function manyFailuresReport(count: number): Report {
  const ids = Array.from(
    { length: count },
    (_, i) => `api::Bulk::case number ${String(i).padStart(4, '0')} ${'x'.repeat(80)}`,
  );
  const failing = Object.fromEntries(ids.map((id) => [id, 'failed' as const]));
  return buildReport({
    targets: [API, WEB],
    failToPass: ids,
    passToPass: [],
    runs: [
      runOf('base', [], failing),
      runOf('api', [API], failing),
      runOf('web', [WEB], failing),
      runOf('full', [API, WEB], failing),
    ],
  });
}

/** The graded samples by name; each call builds a fresh report. */
export const sampleReports = {
  resolved: resolvedReport,
  unresolved: unresolvedReport,
  'infra-error': infraErrorReport,
  'leave-one-out': leaveOneOutReport,
  flaky: flakyReport,
} satisfies Record<string, () => Report>;

export type SampleName = keyof typeof sampleReports;

/** Asserts that `text` contains every string of `has` and none of `lacks`. */
export function expectText(
  text: string,
  { has = [], lacks = [] }: { has?: string[]; lacks?: string[] },
): void {
  for (const part of has) expect(text).toContain(part);
  for (const part of lacks) expect(text).not.toContain(part);
}
