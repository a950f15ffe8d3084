/**
 * One configuration job on a worker: the evaluation's suite folder written from its bundle (once
 * per evaluation on this host), then the engine's own pipeline with `only` set to that
 * configuration — the same code path as a local evaluation, ending in a partial report that
 * carries the raw runs for the App to grade with the others.
 */
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { InfraError } from '../../core/errors.ts';
import { planMatrix } from '../../core/matrix-plan.ts';
import type { Report } from '../../core/report.schema.ts';
import type { WorkerBundle } from '../../core/worker-job.schema.ts';
import type { HostDefaults } from '../host-defaults.ts';

/** Runs one configuration of a bundle; throws only when there is no report to give. */
export type ConfigurationRunner = (input: {
  bundle: WorkerBundle;
  suiteDir: string;
  configuration: string;
  signal: AbortSignal;
}) => Promise<Report>;

export interface EngineRunnerSettings {
  host: HostDefaults;
  sandbox: 'docker' | 'process';
  /** Configurations of one job run at once (its reruns); the engine's default when unset. */
  jobs?: number;
}

export function engineRunner(settings: EngineRunnerSettings): ConfigurationRunner {
  let network: Promise<string> | undefined;
  return async ({ bundle, suiteDir, configuration, signal }) => {
    const ids = planMatrix(
      bundle.targets.map((t) => t.repo),
      bundle.matrix,
    ).configurations.map((c) => c.id);
    if (!ids.includes(configuration))
      throw new InfraError('engine', `configuration ${configuration} is not in the evaluation's matrix`);
    const [{ buildEvaluationRequest }, { evaluate }] = await Promise.all([
      import('../evaluation-request.ts'),
      import('../evaluate.ts'),
    ]);
    const request = await buildEvaluationRequest(
      {
        caseFile: { name: bundle.name, targets: bundle.targets, context: bundle.context },
        suite: bundle.suite,
        suiteDir,
        caseDir: suiteDir,
      },
      {
        matrix: bundle.matrix,
        reruns: bundle.reruns,
        cacheDir: settings.host.cacheDir,
        sandbox: settings.sandbox,
        ...(settings.jobs ? { jobs: settings.jobs } : {}),
      },
      {
        host: settings.host,
        label: (s) => `worker setting "${s}"`,
        detectNetwork: () => {
          network ??= import('../docker/docker-network.ts').then((m) => m.detectPrepareNetwork());
          return network;
        },
      },
    );
    return evaluate(request.change, {
      ...request.options,
      only: [configuration],
      shardLabel: configuration,
      signal,
    });
  };
}

/**
 * The suite folders of the evaluations this worker ran lately, written once each: hidden files
 * stay on this evaluator-owned host, and the oldest folders go when there are too many.
 */
export class SuiteFolders {
  private readonly folders = new Map<string, Promise<string>>();

  constructor(
    private readonly root: string,
    private readonly keep = 16,
  ) {}

  get(evaluation: string, files: WorkerBundle['files']): Promise<string> {
    let dir = this.folders.get(evaluation);
    if (!dir) {
      dir = this.write(evaluation, files);
      this.folders.set(evaluation, dir);
      dir.catch(() => this.folders.delete(evaluation));
      for (const old of [...this.folders.keys()].slice(0, Math.max(0, this.folders.size - this.keep))) {
        this.folders.delete(old);
        void rm(path.join(this.root, old), { recursive: true, force: true });
      }
    }
    return dir;
  }

  private async write(evaluation: string, files: WorkerBundle['files']): Promise<string> {
    const dir = path.join(this.root, evaluation);
    await rm(dir, { recursive: true, force: true });
    for (const f of files) {
      const file = path.join(dir, ...f.path.split('/'));
      await mkdir(path.dirname(file), { recursive: true });
      await writeFile(file, Buffer.from(f.base64, 'base64'));
    }
    await mkdir(dir, { recursive: true });
    return dir;
  }

  async clear(): Promise<void> {
    this.folders.clear();
    await rm(this.root, { recursive: true, force: true });
  }
}
