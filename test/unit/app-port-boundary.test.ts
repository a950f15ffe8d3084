/**
 * The App's rooms reach GitHub through the port (src/app/port/github-port.ts) only: no file of
 * src/app imports the Octokit client or its adapter, or reaches through a port for its client,
 * except Probot's wiring (the client's class and each installation's port built over it) and the
 * linked-set merge queue (`merge-command/queue-*.ts`, bridged by `port/queue-client.ts`).
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const APP = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../src/app');

/** Probot's wiring, the port itself, and the queue that is not on it yet. */
const ALLOWED = [/^port\//, /^(index|main|server|octokit)\.ts$/, /^merge-command\/queue-[a-z-]+\.ts$/];
const REACHES_OCTOKIT = [
  /from '[./]*\/github\/octokit\.ts'/,
  /from '[./]*(port\/)?octokit-port\.ts'/,
  /\.octokit\b/,
];

function appFiles(dir = APP): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return appFiles(full);
    return e.name.endsWith('.ts') ? [path.relative(APP, full).split(path.sep).join('/')] : [];
  });
}

describe('the GitHub port boundary', () => {
  it('no room of src/app reaches Octokit but through the port', () => {
    const offenders = appFiles()
      .filter((f) => !ALLOWED.some((a) => a.test(f)))
      .flatMap((f) => {
        const text = readFileSync(path.join(APP, f), 'utf8');
        return REACHES_OCTOKIT.filter((r) => r.test(text)).map((r) => `${f}: ${r.source}`);
      });
    expect(offenders).toEqual([]);
  });
});
