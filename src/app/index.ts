/**
 * The Probot application function. `createTandemApp` wires the store, queue and executor;
 * the default export reads the environment (for `probot run` and the manifest flow).
 */
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { ApplicationFunction, Probot } from 'probot';
import type { GitHub } from '../github/octokit.ts';
import { ActionsExecutor } from './actions-executor.ts';
import { type Executor, LocalExecutor } from './executor.ts';
import { registerHandlers } from './handlers.ts';
import { TandemService } from './service.ts';
import { type Settings, settingsFromEnv } from './settings.ts';
import { Store } from './store.ts';
import { registerWorkflowRunHandler } from './workflow-run-handler.ts';

export interface TandemAppOptions {
  settings: Settings;
  /** Defaults to the engine on this host (Docker). */
  executor?: Executor;
  /** Receives the service once loaded (tests and the server use it to drain and close). */
  onService?: (service: TandemService) => void;
}

export function createTandemApp(options: TandemAppOptions): ApplicationFunction {
  return (app: Probot) => {
    const { settings } = options;
    const dataDir = resolve(settings.dataDir);
    mkdirSync(dataDir, { recursive: true });
    const store = new Store(join(dataDir, 'tandem.db'));
    store.deliveries.prune(7 * 24 * 3600 * 1000);
    const local =
      options.executor ??
      new LocalExecutor({ cacheDir: join(dataDir, 'cache'), sandbox: settings.sandbox, jobs: settings.jobs });
    // Organizations on `executor: actions` evaluate in their evaluator's workflow; the rest locally.
    const auth = async (id: number) => (await app.auth(id)) as unknown as GitHub;
    const executor = new ActionsExecutor({ store, fallback: local, auth, log: app.log });
    const service = new TandemService({
      store,
      executor,
      auth,
      log: app.log,
      debounceMs: settings.debounceMs,
      concurrency: settings.concurrency,
    });
    registerHandlers(app, service);
    registerWorkflowRunHandler(app, service, executor);
    const resumed = service.resume();
    if (resumed > 0) app.log.info({ resumed }, 'resumed unfinished evaluations');
    options.onService?.(service);
  };
}

export default createTandemApp({ settings: settingsFromEnv(process.env) });
