/**
 * Builders for ConfigurationRun objects, the engine's raw output that core/grading consumes.
 * Tests describe what each configuration's tests did; these turn that into runs shaped exactly
 * like src/engine/run-configuration.ts produces them.
 */
import { grade } from '../../src/core/grading.ts';
import type { MatrixPlan, PlannedConfiguration } from '../../src/core/matrix-plan.ts';
import { REPORT_SCHEMA_VERSION, type Report } from '../../src/core/report.schema.ts';
import type {
  ConfigurationRun,
  GroupRun,
  GroupStatus,
  InfraErrorInfo,
  InfraErrorKind,
  TestStatus,
} from '../../src/core/run.schema.ts';
import { groupOfTestId, testId } from '../../src/core/test-id.ts';

/** Test statuses keyed by test id (`<group>::<classname>::<name>`). */
export type Statuses = Record<string, TestStatus>;

/** A test id in `group` with a fixed classname, so tests read as `id('api', 'creates')`. */
export function id(group: string, name: string, classname = 'Suite'): string {
  return testId(group, classname, name);
}

/** A group that wrote its result file: exit code 1 when any test did not pass. */
export function reportedGroup(name: string, tests: Statuses, extra: Partial<GroupRun> = {}): GroupRun {
  const list = Object.entries(tests).map(([tid, status]) => ({
    id: tid,
    status,
    ...(status === 'failed' ? { message: `assertion failed in ${tid}` } : {}),
  }));
  return {
    name,
    status: 'reported',
    exitCode: list.every((t) => t.status === 'passed' || t.status === 'skipped') ? 0 : 1,
    durationMs: 100,
    tests: list,
    ...extra,
  };
}

/** A group that ended without results (crash, timeout, memory kill, ...). */
export function failedGroup(
  name: string,
  status: Exclude<GroupStatus, 'reported'>,
  extra: Partial<GroupRun> = {},
): GroupRun {
  return {
    name,
    status,
    exitCode: status === 'timeout' ? null : status === 'oom' ? 137 : 1,
    durationMs: 100,
    tests: [],
    ...extra,
  };
}

/** Splits statuses into one reported group per id prefix, in first-seen order. */
export function groupsOf(tests: Statuses, repos: Record<string, string> = {}): GroupRun[] {
  const byGroup = new Map<string, Statuses>();
  for (const [tid, status] of Object.entries(tests)) {
    const g = groupOfTestId(tid);
    byGroup.set(g, { ...byGroup.get(g), [tid]: status });
  }
  return [...byGroup].map(([name, ts]) => reportedGroup(name, ts, repos[name] ? { repo: repos[name] } : {}));
}

export function run(
  configuration: Pick<PlannedConfiguration, 'id' | 'applied'>,
  groups: GroupRun[],
  extra: Partial<ConfigurationRun> = {},
): ConfigurationRun {
  return {
    id: configuration.id,
    applied: [...configuration.applied],
    attempt: 0,
    setup: [],
    groups,
    cached: false,
    durationMs: 1000,
    ...extra,
  };
}

/** A run that never got to its tests: an infrastructure error. */
export function errorRun(
  configuration: Pick<PlannedConfiguration, 'id' | 'applied'>,
  error: InfraErrorInfo,
  extra: Partial<ConfigurationRun> = {},
): ConfigurationRun {
  return run(configuration, [], { infraError: { configuration: configuration.id, ...error }, ...extra });
}

export function infra(
  kind: InfraErrorKind,
  message: string,
  extra: Partial<InfraErrorInfo> = {},
): InfraErrorInfo {
  return { kind, message, ...extra };
}

/**
 * One run per planned configuration; `statuses` says what the tests did given the targets at
 * head. Return a ConfigurationRun instead to take full control of a configuration.
 */
export function simulate(
  plan: MatrixPlan,
  statuses: (applied: ReadonlySet<string>, c: PlannedConfiguration) => Statuses | ConfigurationRun,
  repos: Record<string, string> = {},
): ConfigurationRun[] {
  return plan.configurations.map((c) => {
    const out = statuses(new Set(c.applied), c);
    return isRun(out) ? out : run(c, groupsOf(out, repos));
  });
}

function isRun(x: Statuses | ConfigurationRun): x is ConfigurationRun {
  return Array.isArray((x as ConfigurationRun).groups) && typeof (x as ConfigurationRun).attempt === 'number';
}

/** `pass` when all given targets are applied, else `fail`: a change every listed target is needed for. */
export function needs(applied: ReadonlySet<string>, ...targets: string[]): TestStatus {
  return targets.every((t) => applied.has(t)) ? 'passed' : 'failed';
}

/** Expected per-repository metrics of a grade; `f2p` and `p2p` are [passed, total]. */
export function metrics(
  repo: string,
  f2p: [number, number],
  p2p: [number, number],
  flags: { f2pComplete: boolean; p2pPreserved: boolean; success: boolean },
) {
  return {
    repo,
    f2p: { passed: f2p[0], total: f2p[1] },
    p2p: { passed: p2p[0], total: p2p[1] },
    ...flags,
  };
}

/** The configuration with this id, for building runs by hand. */
export function config(plan: MatrixPlan, configurationId: string): PlannedConfiguration {
  const c = plan.configurations.find((x) => x.id === configurationId);
  if (!c)
    throw new Error(`no configuration ${configurationId} in plan (${plan.configurations.map((x) => x.id)})`);
  return c;
}

export interface ReportInput {
  plan: MatrixPlan;
  runs: ConfigurationRun[];
  groups: Array<{ name: string; repo?: string }>;
  failToPass?: string[];
  passToPass?: string[];
  reruns?: number;
  /** `i/n`: make a shard report carrying its raw runs, as `tandem eval --shard` does. */
  shard?: string;
  name?: string;
  suiteHash?: string;
  durationMs?: number;
}

/** A report assembled the way src/engine/evaluate.ts assembles one: grade() plus metadata. */
export function reportFrom(input: ReportInput): Report {
  const { plan, runs, groups } = input;
  const lists = {
    ...(input.failToPass ? { failToPass: input.failToPass } : {}),
    ...(input.passToPass ? { passToPass: input.passToPass } : {}),
  };
  const graded = grade({ plan, runs, groups, ...lists, infraErrors: [] });
  return {
    schemaVersion: REPORT_SCHEMA_VERSION,
    tool: { name: 'tandem', version: '0.0.0-test' },
    name: input.name ?? 'linked change',
    createdAt: '2025-01-01T00:00:00.000Z',
    durationMs: input.durationMs ?? 1000,
    sandbox: 'docker',
    suite: {
      name: 'suite',
      hash: input.suiteHash ?? 'sha256:suite',
      image: 'tandem/sandbox:node20',
      imageId: 'sha256:img',
    },
    matrix: {
      requested: plan.requested,
      mode: plan.mode,
      reruns: input.reruns ?? 0,
      planned: plan.configurations.map((c) => c.id),
    },
    targets: plan.targets.map((repo, i) => ({
      repo,
      url: `https://example.test/${repo}.git`,
      base: { ref: 'main', sha: `${i}`.padStart(40, 'b') },
      head: { ref: 'feature', sha: `${i}`.padStart(40, 'h'), kind: 'branch' as const },
    })),
    context: [],
    ...graded,
    ...(input.shard ? { partial: { shard: input.shard, runs, groups, ...lists } } : {}),
  };
}
