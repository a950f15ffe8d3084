/**
 * The world of the mining end-to-end tests: two repositories, `acme/lib` and its consumer
 * `acme/app`, under `<root>/remotes`, served by git over HTTP, and the suite template the tests
 * mine with (each repository's `node --test` as JUnit, in the sandbox image) at `<root>/suite.hbs.yaml`.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { type GitHttpServer, startGitHttpServer } from '../support/git-http-server.ts';
import { SANDBOX_IMAGE } from './example-cases.ts';

const SUITE_TEMPLATE = `name: "{{instance_id}}"
image: ${SANDBOX_IMAGE}
limits: { memory: 256m, cpus: 1, pids: 256, configuration_timeout: 300 }
tests:
{{#each repos}}
  - name: {{name}}
    repo: {{repo}}
    run: node --test --test-reporter=junit --test-reporter-destination=$TANDEM_RESULTS/{{name}}.xml {{name}}/test/*.test.js
    results: { format: junit, path: {{name}}.xml }
    timeout: 60
{{/each}}
`;

/** Where the repositories go: `createRepo(remotesOf(root), 'lib', …)`. */
export const remotesOf = (root: string) => path.join(root, 'remotes');

export interface LibAppRemotes {
  server: GitHttpServer;
  /** The suite template's path. */
  template: string;
  /** `tandem mine git` over both repositories (app at `appRef` when given), writing `out`. */
  mineArgs(opts: { since: string; out: string; appRef?: string }): string[];
}

/** Writes the suite template and serves `remotesOf(root)`; call once the repositories are made. */
export async function serveLibApp(root: string): Promise<LibAppRemotes> {
  const template = path.join(root, 'suite.hbs.yaml');
  await writeFile(template, SUITE_TEMPLATE);
  const server = await startGitHttpServer(remotesOf(root));
  return {
    server,
    template,
    mineArgs: ({ since, out, appRef }) => [
      'mine',
      'git',
      '--repo',
      `acme/lib=${server.url}/lib.git`,
      '--repo',
      `acme/app=${server.url}/app.git${appRef ? `@${appRef}` : ''}`,
      '--since',
      since,
      '--out',
      out,
    ],
  };
}
