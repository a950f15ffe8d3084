/**
 * The Probot application function. `createTandemApp` opens the store and wires one
 * installation-client cache, one `tandem.yml` cache, the executors and the service into a
 * `TandemRuntime`, which owns their shutdown. The default export reads the environment when
 * Probot loads it (for `probot run` and the manifest flow), never at import.
 */
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { ApplicationFunction, ApplicationFunctionOptions, Probot } from 'probot';
import type { GitHub } from '../github/octokit.ts';
import { OrgConfigCache } from './evaluations/org-config-cache.ts';
import { PublishedReports } from './evaluations/published-reports.ts';
import { ActionsExecutor } from './executors/actions-executor.ts';
import { type Executor, LocalExecutor } from './executors/executor.ts';
import { WorkersExecutor } from './executors/workers-executor.ts';
import { InstallationClients } from './installation-clients.ts';
import { MergeGroupGate } from './merge-queue/merge-group-gate.ts';
import type { AppMetrics } from './ops/app-metrics.ts';
import { octokitPort } from './port/octokit-port.ts';
import { ReplicaCoordination } from './replicas/replica-coordination.ts';
import { TandemService } from './service.ts';
import { type Settings, settingsFromEnv } from './settings.ts';
import { Store } from './store/store.ts';
import { registerMergeGroupHandler } from './webhooks/merge-group-handler.ts';
import { registerHandlers } from './webhooks/pull-request-handlers.ts';
import { registerWorkflowRunHandler } from './webhooks/workflow-run-handler.ts';

/** Everything the App started, and the one way to stop it. */
export interface TandemRuntime {
  store: Store;
  service: TandemService;
  /** The JSON reports the comments link (served by the App's HTTP server). */
  reports: PublishedReports;
  actions: ActionsExecutor;
  /** `Tandem` checks on merge queue groups (`merge_group` webhooks). */
  mergeGroups: MergeGroupGate;
  /** Set when the store is a PostgreSQL database replicas may share (`DATABASE_URL`). */
  replicas?: ReplicaCoordination;
  /**
   * Stops in dependency order and resolves when nothing runs any more: the service (queue,
   * evaluations, webhook work), the merge-group gate (running groups stay stored for the
   * restart), then the Actions executor (its polls and check-run updates),
   * then the store. Nothing touches the database after this.
   */
  close(): Promise<void>;
}

export interface TandemAppOptions {
  settings: Settings;
  /** Defaults to the engine on this host (Docker). */
  executor?: Executor;
  /** This App instance's metrics (the server serves them on `/metrics`). */
  metrics?: AppMetrics;
  /** Receives the runtime once loaded (the server closes it; tests observe the service). */
  onRuntime?: (runtime: TandemRuntime) => void;
}

export function createTandemApp(options: TandemAppOptions): ApplicationFunction {
  return async (app: Probot) => {
    const { settings } = options;
    const dataDir = resolve(settings.dataDir);
    mkdirSync(dataDir, { recursive: true });
    // DATABASE_URL: a PostgreSQL database any number of App replicas share; else one SQLite file.
    const store = await Store.open(settings.databaseUrl ?? join(dataDir, 'tandem.db'));
    const replicas = settings.databaseUrl
      ? new ReplicaCoordination(store, { log: app.log, ttlMs: settings.leaseMs })
      : undefined;
    await store.deliveries.prune(7 * 24 * 3600 * 1000);
    // A `/tandem merge` the previous process was running is over: the next one reads GitHub afresh.
    const interrupted = await store.merges.interruptRunning();
    if (interrupted > 0) app.log.warn({ interrupted }, 'merges interrupted by a restart');
    const local =
      options.executor ??
      new LocalExecutor({
        cacheDir: join(dataDir, 'cache'),
        host: settings.engineHost,
        sandbox: settings.sandbox,
        jobs: settings.jobs,
      });
    const clients = new InstallationClients(async (id) =>
      octokitPort((await app.auth(id)) as unknown as GitHub),
    );
    const configs = new OrgConfigCache({ ttlMs: settings.configTtlMs });
    // `executor: workers`: configurations go to `tandem worker` processes through PostgreSQL.
    const workers = new WorkersExecutor({
      databaseUrl: settings.databaseUrl ?? '',
      fallback: local,
      log: app.log,
    });
    // Organizations on `executor: actions` evaluate in their evaluator's workflow; the rest locally.
    const actions = new ActionsExecutor({
      store,
      fallback: workers,
      github: (id) => clients.get(id),
      log: app.log,
    });
    const reports = new PublishedReports(join(dataDir, 'reports'), settings.publicUrl);
    const service = new TandemService({
      store,
      reports,
      executor: actions,
      github: (id) => clients.get(id),
      configs,
      log: app.log,
      debounceMs: settings.debounceMs,
      concurrency: settings.concurrency,
      ...(replicas ? { replicas } : {}),
      ...(options.metrics ? { metrics: options.metrics } : {}),
      queueLandingRetryMs: settings.queueLandingRetryMs,
    });
    options.metrics?.watchQueue(() => service.queueDepth());
    registerHandlers(app, service, (id) => clients.get(id));
    registerWorkflowRunHandler(app, service, actions);
    const mergeGroups = new MergeGroupGate({
      store,
      executor: actions,
      configs,
      github: (id) => clients.get(id),
      log: app.log,
      concurrency: settings.concurrency,
      // Replicas: each group gated under a lease, adopted by a live replica's sweep when it expires.
      ...(replicas
        ? {
            leases: {
              holder: replicas.holder,
              ttlMs: replicas.ttlMs,
              tryHold: (name: string) => replicas.keeper.tryHold(name),
            },
          }
        : {}),
    });
    registerMergeGroupHandler(app, service.deliveries, mergeGroups);
    const resumedGroups = await mergeGroups.resume();
    if (resumedGroups > 0) app.log.info({ resumed: resumedGroups }, 'resumed open merge groups');
    const resumed = await service.resume(() => mergeGroups.sweep());
    if (resumed > 0) app.log.info({ resumed }, 'resumed unfinished evaluations');
    let closing: Promise<void> | undefined;
    options.onRuntime?.({
      store,
      service,
      reports,
      actions,
      mergeGroups,
      ...(replicas ? { replicas } : {}),
      close: () => {
        closing ??= (async () => {
          await service.close();
          await mergeGroups.close();
          await actions.close();
          await workers.close();
          await replicas?.close();
          await store.close();
        })();
        return closing;
      },
    });
  };
}

export default function tandemApp(app: Probot, options: ApplicationFunctionOptions): void | Promise<void> {
  return createTandemApp({ settings: settingsFromEnv(process.env) })(app, options);
}
