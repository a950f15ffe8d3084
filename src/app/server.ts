/**
 * The App's HTTP server: Probot's webhook middleware (signature verification included) on a
 * plain node server, configured from Probot's standard environment plus TANDEM_* (read here,
 * once, and passed down).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createNodeMiddleware, createProbot } from 'probot';
import type { Executor } from './executor.ts';
import { createTandemApp, type TandemRuntime } from './index.ts';
import { tandemOctokit } from './octokit.ts';
import type { TandemService } from './service.ts';
import { settingsFromEnv } from './settings.ts';

export interface AppServer {
  server: Server;
  port: number;
  url: string;
  service: TandemService;
  runtime: TandemRuntime;
  /** Stops taking webhooks, lets those being answered finish, then closes the runtime. */
  close(): Promise<void>;
}

export interface StartOptions {
  env: NodeJS.ProcessEnv;
  executor?: Executor;
}

export async function startAppServer(opts: StartOptions): Promise<AppServer> {
  const settings = settingsFromEnv(opts.env);
  const probot = createProbot({
    env: opts.env,
    overrides: { Octokit: tandemOctokit({ writeSpacingMs: settings.writeSpacingMs }) },
  });
  let runtime: TandemRuntime | undefined;
  const middleware = await createNodeMiddleware(
    createTandemApp({
      settings,
      ...(opts.executor ? { executor: opts.executor } : {}),
      onRuntime: (r) => (runtime = r),
    }),
    { probot },
  );
  if (!runtime) throw new Error('the Tandem App did not load');
  const loaded = runtime;
  const server = createServer((req, res) => {
    void middleware(req, res, () => {
      if (req.url === '/ping') res.writeHead(200).end('PONG');
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
    async close() {
      // `close` ends idle keep-alive connections and waits for requests being answered.
      await new Promise<void>((ok) => server.close(() => ok()));
      await loaded.close();
    },
  };
}
