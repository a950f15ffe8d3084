/**
 * Where evaluations run. The App runs them on its own host through the engine (Docker); the
 * Action issue adds an Actions executor behind the same interface.
 */
import type { BranchTarget, ContextRepo } from '../core/case.schema.ts';
import type { MatrixMode } from '../core/matrix-plan.ts';
import type { OrgActions } from '../core/org-config.schema.ts';
import type { Report } from '../core/report.schema.ts';
import type { Suite } from '../core/suite.schema.ts';
import type { Evaluate, EvaluationEvent } from '../engine/evaluate-api.ts';

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
  run(change: LinkedChangeSpec, signal: AbortSignal): Promise<Report>;
}

export interface LocalExecutorOptions {
  cacheDir: string;
  /** Configurations run at once inside one evaluation. */
  jobs?: number;
  sandbox?: 'docker' | 'process';
  prepareNetwork?: string;
  onEvent?: (event: EvaluationEvent) => void;
  /** The engine entry; injected so the App does not load Docker code until it evaluates. */
  evaluate?: Evaluate;
}

export class LocalExecutor implements Executor {
  constructor(private readonly opts: LocalExecutorOptions) {}

  async run(change: LinkedChangeSpec, signal: AbortSignal): Promise<Report> {
    const evaluate = this.opts.evaluate ?? (await import('../engine/evaluate.ts')).evaluate;
    return evaluate(
      {
        caseFile: { name: change.name, targets: change.targets, context: change.context },
        suite: change.suite,
        suiteDir: change.suiteDir,
        caseDir: change.suiteDir,
      },
      {
        matrix: change.matrix,
        reruns: 0,
        jobs: this.opts.jobs ?? 2,
        cacheDir: this.opts.cacheDir,
        useResultCache: true,
        sandbox: this.opts.sandbox ?? 'docker',
        prepareNetwork: this.opts.prepareNetwork ?? 'bridge',
        signal,
        ...(this.opts.onEvent ? { onEvent: this.opts.onEvent } : {}),
      },
    );
  }
}
