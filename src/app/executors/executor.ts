/**
 * Where evaluations run: on the App's own host through the engine (Docker), or handed to the
 * evaluator's GitHub Actions workflow (`actions-executor.ts`) behind the same interface.
 */
import type { BranchTarget, ContextRepo } from '../../core/case.schema.ts';
import type { MatrixMode } from '../../core/matrix-mode.ts';
import type { OrgActions } from '../../core/org-config.schema.ts';
import type { Report } from '../../core/report.schema.ts';
import type { Suite } from '../../core/suite.schema.ts';
import type { Evaluate, EvaluationEvent } from '../../engine/evaluate-api.ts';
import type { HostDefaults } from '../../engine/host-defaults.ts';

/** One linked change, ready to evaluate: members as merge targets, the rest of the suite as context. */
export interface LinkedChangeSpec {
  /** The App's evaluation this is: a hand-off names its workflow run after it. */
  evaluationId: number;
  name: string;
  targets: BranchTarget[];
  context: ContextRepo[];
  suite: Suite;
  suiteDir: string;
  /** The suite file in the evaluator repository, as `tandem.yml` names it. */
  suitePath: string;
  matrix: MatrixMode;
  /** Set when `tandem.yml` says `executor: actions`: the evaluator's workflow runs the change. */
  actions?: ActionsPlacement;
}

/** Where an `executor: actions` evaluation goes: the evaluator repository and its workflow settings. */
export interface ActionsPlacement extends OrgActions {
  /** `owner/name` of the evaluator repository. */
  evaluator: string;
}

export interface Executor {
  /** `onEvent`: this evaluation's engine events (progress), where the executor has them. */
  run(
    change: LinkedChangeSpec,
    signal: AbortSignal,
    onEvent?: (event: EvaluationEvent) => void,
  ): Promise<Report>;
  /**
   * Readiness (`GET /readyz`): resolves naming what it depends on once that answers, rejects
   * saying what does not. Absent: nothing to check.
   */
  ready?(): Promise<string>;
}

/** How long a readiness ping may take before the dependency counts as not answering. */
const READY_PING_MS = 2_000;

export interface LocalExecutorOptions {
  /** Where the engine keeps mirrors, states and results (the App's data directory). */
  cacheDir: string;
  /** What the host offers (CA bundle), read once from the environment at start. */
  host: HostDefaults;
  /** Configurations run at once inside one evaluation; the builder's default from CPUs and memory when unset. */
  jobs?: number | undefined;
  sandbox?: 'docker' | 'process';
  /** Forces the prepare network; detected like the CLI's when unset. */
  prepareNetwork?: string;
  onEvent?: (event: EvaluationEvent) => void;
  /** The engine entry; injected so the App does not load Docker code until it evaluates. */
  evaluate?: Evaluate;
}

/**
 * The engine on the App's host. The request is built by the same builder as the CLI's and the
 * Action's (`engine/evaluation-request.ts`): jobs, prepare network and CA bundle are decided
 * the same way, so a change evaluates alike from every face.
 */
export class LocalExecutor implements Executor {
  /** The detected prepare network, shared by every evaluation (a failed detection is retried). */
  private network: Promise<string> | undefined;

  constructor(private readonly opts: LocalExecutorOptions) {}

  /** The Docker engine answers a ping (the process sandbox needs none). */
  async ready(): Promise<string> {
    if (this.opts.sandbox === 'process') return 'process sandbox (no engine)';
    const { createDockerClient } = await import('../../engine/docker/docker-client.ts');
    const docker = createDockerClient();
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, fail) => {
      timer = setTimeout(() => fail(new Error(`no answer in ${READY_PING_MS} ms`)), READY_PING_MS);
    });
    try {
      await Promise.race([docker.ping(), late]);
    } catch (e) {
      throw new Error(`Docker is not reachable: ${(e as Error).message}`);
    } finally {
      clearTimeout(timer);
    }
    return 'Docker';
  }

  private detectNetwork(): Promise<string> {
    if (!this.network) {
      const detecting = import('../../engine/docker/docker-network.ts').then((m) => m.detectPrepareNetwork());
      this.network = detecting;
      detecting.catch(() => {
        if (this.network === detecting) this.network = undefined;
      });
    }
    return this.network;
  }

  async run(
    change: LinkedChangeSpec,
    signal: AbortSignal,
    onEvent?: (event: EvaluationEvent) => void,
  ): Promise<Report> {
    const { buildEvaluationRequest } = await import('../../engine/evaluation-request.ts');
    const evaluate = this.opts.evaluate ?? (await import('../../engine/evaluate.ts')).evaluate;
    const request = await buildEvaluationRequest(
      {
        caseFile: { name: change.name, targets: change.targets, context: change.context },
        suite: change.suite,
        suiteDir: change.suiteDir,
        caseDir: change.suiteDir,
      },
      {
        matrix: change.matrix,
        cacheDir: this.opts.cacheDir,
        sandbox: this.opts.sandbox ?? 'docker',
        ...(this.opts.jobs ? { jobs: this.opts.jobs } : {}),
        ...(this.opts.prepareNetwork ? { prepareNetwork: this.opts.prepareNetwork } : {}),
      },
      {
        host: this.opts.host,
        label: (setting) => `App setting "${setting}"`,
        detectNetwork: () => this.detectNetwork(),
      },
    );
    return evaluate(request.change, {
      ...request.options,
      signal,
      ...(this.opts.onEvent || onEvent
        ? {
            onEvent: (e: EvaluationEvent) => {
              this.opts.onEvent?.(e);
              onEvent?.(e);
            },
          }
        : {}),
    });
  }
}
