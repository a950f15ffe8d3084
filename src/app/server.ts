/**
 * The App's HTTP server: Probot's webhook middleware (signature verification included) on a
 * plain node server, configured from Probot's standard environment plus TANDEM_*.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createNodeMiddleware, createProbot } from 'probot';
import type { Executor } from './executor.ts';
import { createTandemApp } from './index.ts';
import { TandemOctokit } from './octokit.ts';
import type { TandemService } from './service.ts';
import { settingsFromEnv } from './settings.ts';

export interface AppServer {
  server: Server;
  port: number;
  url: string;
  service: TandemService;
  close(): Promise<void>;
}

export interface StartOptions {
  env: NodeJS.ProcessEnv;
  executor?: Executor;
}

export async function startAppServer(opts: StartOptions): Promise<AppServer> {
  const settings = settingsFromEnv(opts.env);
  const probot = createProbot({ env: opts.env, overrides: { Octokit: TandemOctokit } });
  let service: TandemService | undefined;
  const middleware = await createNodeMiddleware(
    createTandemApp({
      settings,
      ...(opts.executor ? { executor: opts.executor } : {}),
      onService: (s) => (service = s),
    }),
    { probot },
  );
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
    service: service!,
    async close() {
      await new Promise<void>((ok) => server.close(() => ok()));
      server.closeAllConnections();
      await service!.close();
      service!.store.close();
    },
  };
}
