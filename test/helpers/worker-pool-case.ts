/**
 * A linked change for `executor: workers` tests: one real git repository whose PR turns
 * `value.txt` from "old" to "new", and a suite whose hidden check (a TAP test) passes on "new".
 * The check can hold the first configuration that reaches it (`gate.arm()`): it writes which
 * configuration it holds to `started` and blocks reading a FIFO, so a test can kill the worker
 * running it at a known point, found by an event (the file appearing), not by time.
 */

import { execFileSync } from 'node:child_process';
import { constants, existsSync, watch } from 'node:fs';
import { mkdir, open, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { LinkedChangeSpec } from '../../src/app/executors/executor.ts';
import { suiteSchema } from '../../src/core/suite.schema.ts';
import { commitOn, createRepo } from './git-fixtures.ts';

export interface WorkerPoolCase {
  spec: LinkedChangeSpec;
  url: string;
  gate: {
    dir: string;
    arm(): Promise<void>;
    /** Resolves with the configuration held, once the check holds one. */
    held(): Promise<string>;
    /** Lets a held check go on (it may belong to a killed worker: then nothing reads). */
    release(): Promise<void>;
  };
}

const CHECK = `gate="$1"
if [ -d "$gate/armed" ] && mkdir "$gate/claimed" 2>/dev/null; then
  echo "$TANDEM_CONFIGURATION" > "$gate/started.tmp" && mv "$gate/started.tmp" "$gate/started"
  cat "$gate/hold" > /dev/null
fi
if grep -q new "$TANDEM_WORKSPACE/api/value.txt"; then r="ok"; else r="not ok"; fi
printf 'TAP version 13\\n1..1\\n%s 1 - value is new\\n' "$r" > "$TANDEM_RESULTS/r.tap"
`;

export async function workerPoolCase(root: string): Promise<WorkerPoolCase> {
  const repo = await createRepo(root, 'api', { 'value.txt': 'old\n' });
  const head = await commitOn(repo, 'feature', { 'value.txt': 'new\n' }, 'make it new', { from: 'main' });
  const suiteDir = path.join(root, 'suite');
  const gateDir = path.join(root, 'gate');
  await mkdir(gateDir, { recursive: true });
  await mkdir(suiteDir, { recursive: true });
  await writeFile(path.join(suiteDir, 'check.sh'), CHECK);
  const suite = suiteSchema.parse({
    name: 'value',
    image: 'tandem/sandbox:node20',
    tests: [
      {
        name: 'check',
        files: ['check.sh'],
        run: `sh "$TANDEM_HIDDEN/check.sh" "${gateDir}"`,
        results: { format: 'tap', path: 'r.tap' },
      },
    ],
  });
  await writeFile(path.join(suiteDir, 'suite.yml'), JSON.stringify(suite));
  const started = path.join(gateDir, 'started');
  const hold = path.join(gateDir, 'hold');
  return {
    url: repo.url,
    spec: {
      evaluationId: 1,
      name: 'linked change acme/api#1',
      targets: [{ repo: 'acme/api', url: repo.url, base: 'main', head, merge: true }],
      context: [],
      suite,
      suiteDir,
      suitePath: 'suite.yml',
      matrix: 'full',
      workers: true,
    },
    gate: {
      dir: gateDir,
      arm: async () => {
        execFileSync('mkfifo', [hold]);
        await mkdir(path.join(gateDir, 'armed'));
      },
      held: () =>
        new Promise((resolve) => {
          const read = async () => {
            const f = await open(started, 'r');
            try {
              resolve((await f.readFile('utf8')).trim());
            } finally {
              await f.close();
            }
          };
          const watcher = watch(gateDir, () => {
            if (existsSync(started)) {
              watcher.close();
              void read();
            }
          });
          if (existsSync(started)) {
            watcher.close();
            void read();
          }
        }),
      release: async () => {
        try {
          const f = await open(hold, constants.O_WRONLY | constants.O_NONBLOCK);
          await f.close();
        } catch {
          // Nothing reads it any more.
        }
      },
    },
  };
}
