/**
 * `executor: workers`, on real PostgreSQL: an evaluation superseded while its jobs are being sent
 * (a newer request for the set arrived; its abort signal fires before the run waits for results)
 * ends as interrupted, and its bundle is gone. Found by the replicas bench (perf/replicas-bench.ts):
 * such a run waited forever, holding its set, so the set's newer evaluation never started.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WorkersExecutor } from '../../src/app/executors/workers-executor.ts';
import { suiteSchema } from '../../src/core/suite.schema.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/worker-pool-db.ts';

let db: TestDatabase;
let dir: string;
beforeAll(async () => {
  db = await createTestDatabase('t_wk_sup');
  dir = await mkdtemp(path.join(os.tmpdir(), 'tandem-workers-superseded-'));
});
afterAll(async () => {
  await db?.drop();
  await rm(dir, { recursive: true, force: true });
});

describe('a workers evaluation superseded while its jobs are sent', () => {
  it('ends as interrupted instead of waiting forever', async () => {
    const suite = suiteSchema.parse({
      name: 'stub',
      image: 'tandem/sandbox:node20',
      tests: [{ name: 'check', run: 'true', results: { format: 'tap', path: 'r.tap' } }],
    });
    await writeFile(path.join(dir, 'suite.yml'), JSON.stringify(suite));
    const executor = new WorkersExecutor({
      databaseUrl: db.url,
      fallback: { run: () => Promise.reject(new Error('not a workers evaluation')) },
      log: { warn: () => {} },
    });
    const controller = new AbortController();
    try {
      const run = executor.run(
        {
          evaluationId: 1,
          name: 'superseded change',
          targets: ['acme/api', 'acme/web'].map((repo) => ({
            repo,
            url: `https://example.invalid/${repo}.git`,
            base: 'b'.repeat(40),
            head: 'h'.repeat(40),
            merge: true,
          })),
          context: [],
          suite,
          suiteDir: dir,
          suitePath: 'suite.yml',
          matrix: 'full',
          workers: true,
        },
        controller.signal,
        // The plan is announced before the bundle is stored and the jobs sent: the newer request
        // arrives right then.
        (e) => {
          if (e.type === 'plan') controller.abort();
        },
      );
      await expect(run).rejects.toThrow(/interrupted/);
      const c = new pg.Client({ connectionString: db.url });
      await c.connect();
      try {
        expect((await c.query('SELECT count(*)::int AS n FROM tandem_workers.bundles')).rows[0].n).toBe(0);
      } finally {
        await c.end();
      }
    } finally {
      await executor.close();
    }
  }, 60_000);
});
