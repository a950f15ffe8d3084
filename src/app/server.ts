/**
 * The App's HTTP server: Probot's webhook middleware on a plain node server, behind the webhook
 * intake (`webhooks/webhook-intake.ts`: GitHub's 25 MB cap and the signature on the raw bytes), configured from Probot's standard environment plus TANDEM_* (read here,
 * once, and passed down).
 */
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createNodeMiddleware, createProbot, type Logger } from 'probot';
import { type PublishedReports, REPORTS_ROUTE } from './evaluations/published-reports.ts';
import type { Executor } from './executors/executor.ts';
import { createTandemApp, type TandemRuntime } from './index.ts';
import { tandemOctokit } from './octokit.ts';
import { AppMetrics } from './ops/app-metrics.ts';
import { Drain } from './ops/drain.ts';
import { serveOps } from './ops/ops-routes.ts';
import { readiness } from './ops/readiness.ts';
import type { TandemService } from './service.ts';
import { settingsFromEnv } from './settings.ts';
import { guardWebhooks, routesToWebhook, WEBHOOK_PATH } from './webhooks/webhook-intake.ts';

export interface AppServer {
  server: Server;
  port: number;
  url: string;
  service: TandemService;
  runtime: TandemRuntime;
  /** This App instance's metrics registry (`GET /metrics`). */
  metrics: AppMetrics;
  /**
   * Stops taking webhooks (503, and `/readyz` says 503 from now on), lets those being answered
   * finish, closes the runtime (in-flight work drains), then stops listening.
   */
  close(): Promise<void>;
}

export interface StartOptions {
  env: NodeJS.ProcessEnv;
  executor?: Executor;
  /** Where the App logs (default: Probot's pino logger on stdout, at LOG_LEVEL). */
  log?: Logger;
}

export async function startAppServer(opts: StartOptions): Promise<AppServer> {
  const settings = settingsFromEnv(opts.env);
  let runtime: TandemRuntime | undefined;
  const metrics = new AppMetrics();
  const probot = createProbot({
    env: opts.env,
    overrides: {
      Octokit: tandemOctokit({
        writeSpacingMs: settings.writeSpacingMs,
        metrics,
        // Replicas (DATABASE_URL): GitHub's per-installation limits counted in the database.
        sharedPacing: () => runtime?.replicas?.pacing,
      }),
      ...(opts.log ? { log: opts.log } : {}),
    },
  });
  const middleware = await createNodeMiddleware(
    createTandemApp({
      settings,
      ...(opts.executor ? { executor: opts.executor } : {}),
      metrics,
      onRuntime: (r) => (runtime = r),
    }),
    // Fixed here: Probot's own `WEBHOOK_PATH` setting must not open a second, unguarded door.
    { probot, webhooksPath: WEBHOOK_PATH },
  );
  if (!runtime) throw new Error('the Tandem App did not load');
  const loaded = runtime;
  // Size and signature are settled on the raw bytes before Probot reads or parses anything.
  const guarded = guardWebhooks(opts.env.WEBHOOK_SECRET ?? '', middleware);
  const drain = new Drain();
  const ops = {
    metrics,
    readiness: () =>
      readiness(
        {
          // A query, not only an open handle: a store that cannot answer cannot take a webhook.
          store: async () => loaded.store.ping(),
          credentials: async () => (await probot.auth()).auth({ type: 'app' }),
          executor: () => loaded.actions.ready(),
        },
        drain.draining,
      ),
  };
  const server = createServer((req, res) => {
    if (serveOps(req, res, ops)) return;
    // A delivery (a GET there is a plain 404 from the guard, not a delivery refused).
    if (req.method === 'POST' && routesToWebhook(req.url)) {
      if (drain.draining) {
        metrics.delivery('rejected');
        res.writeHead(503, { 'retry-after': '30', connection: 'close' }).end('shutting down');
        return;
      }
      drain.track(res);
      // Refused at the door (size, signature, a malformed delivery): Probot never acts on it.
      res.once('finish', () => {
        if (res.statusCode >= 400 && res.statusCode < 500) metrics.delivery('rejected');
      });
    }
    void guarded(req, res, () => {
      if (req.url === '/ping') res.writeHead(200).end('PONG');
      else if (req.method === 'GET' && req.url?.startsWith(REPORTS_ROUTE))
        serveReport(loaded.reports, req.url, res);
      else res.writeHead(404).end();
    });
  });
  await new Promise<void>((ok) => server.listen(settings.port, settings.host ?? '127.0.0.1', ok));
  const { port, address } = server.address() as AddressInfo;
  return {
    server,
    port,
    url: `http://${address.includes(':') ? `[${address}]` : address}:${port}`,
    service: loaded.service,
    runtime: loaded,
    metrics,
    async close() {
      // Still listening while the work drains: `/readyz` answers 503 meanwhile.
      await drain.begin();
      await loaded.close();
      // `close` ends idle keep-alive connections and waits for requests being answered.
      await new Promise<void>((ok) => server.close(() => ok()));
    },
  };
}

/** A published JSON report; anything else under the route is a plain 404. */
function serveReport(reports: PublishedReports, url: string, res: ServerResponse): void {
  const json = reports.read(new URL(url, 'http://x').pathname);
  if (json === undefined) {
    res.writeHead(404).end();
    return;
  }
  res
    .writeHead(200, {
      'content-type': 'application/json; charset=utf-8',
      'x-content-type-options': 'nosniff',
      'cache-control': 'private, max-age=300',
    })
    .end(json);
}
