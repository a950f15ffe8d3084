/**
 * Puts a generated bench case behind smart HTTP, as the product meets repositories (GitHub over
 * HTTPS): `git http-backend` in this process (test/support/git-http-server.ts) serves the bare
 * remotes, and the case file and the baseline use the http:// URLs. While it serves, git must only
 * be run asynchronously from this process: a synchronous call would block the server it talks to.
 */
import path from 'node:path';
import { startGitHttpServer } from '../test/support/git-http-server.ts';
import { type BenchCase, writeCaseFile } from './generate-case.ts';

export interface ServedCase {
  /** The case with http:// URLs; its case file is rewritten to match. */
  benchCase: BenchCase;
  /** The server's base URL. */
  url: string;
  /** HTTP requests served so far (each git fetch or clone makes two or three). */
  requestCount(): number;
  close(): Promise<void>;
}

export async function serveBenchCase(c: BenchCase): Promise<ServedCase> {
  const server = await startGitHttpServer(path.join(c.dir, 'remotes'));
  const benchCase: BenchCase = {
    ...c,
    repos: c.repos.map((r) => ({ ...r, url: `${server.url}/${path.basename(r.remoteDir)}` })),
  };
  writeCaseFile(benchCase);
  return {
    benchCase,
    url: server.url,
    requestCount: () => server.requests.length,
    close: () => server.close(),
  };
}
