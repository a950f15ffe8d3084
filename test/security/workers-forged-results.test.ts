/**
 * Forged worker answers (SECURITY.md, "Workers"): the App's real WorkersExecutor on a real
 * PostgreSQL database of this test's own, and this test in the place of a worker — or of anyone
 * who can write the database — storing answers the App did not ask for. The trust boundary: a
 * worker is trusted to run the sandbox (the outcomes of an honest report cannot be checked), but
 * what it stores is bounded in size, schema-checked, believed only under the claim of the job it
 * was given and only as a partial report of exactly that configuration of this change, graded
 * with the App's own suite lists, and escaped wherever it is quoted. A forgery is at worst that
 * configuration's infrastructure error: never a verdict, never a link in a comment.
 *
 * Honest reports are the engine's own (run once here, development process sandbox); forgeries
 * are those reports tampered with, or rows written straight into the tables.
 */
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import MarkdownIt from 'markdown-it';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WorkersExecutor } from '../../src/app/executors/workers-executor.ts';
import type { EvaluationEvent } from '../../src/core/evaluation-event.ts';
import type { Report } from '../../src/core/report.schema.ts';
import { JOBS_CHANNEL, RESULTS_CHANNEL, workerBundleSchema } from '../../src/core/worker-job.schema.ts';
import { type JobQueue, openJobQueue } from '../../src/engine/workers/job-queue.ts';
import { engineRunner } from '../../src/engine/workers/run-job.ts';
import * as claims from '../../src/engine/workers/worker-claims.ts';
import * as rows from '../../src/engine/workers/worker-tables.ts';
import { renderMarkdown } from '../../src/report/markdown-report.ts';
import { makeTempDir, removeTempDir } from '../helpers/git-fixtures.ts';
import { type WorkerPoolCase, workerPoolCase } from '../helpers/worker-pool-case.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/worker-pool-db.ts';

const EVIL_LINK = '[claim your prize](https://evil.example/x)';
const MENTION = '@octocat';

let db: TestDatabase;
let root: string;
let world: WorkerPoolCase;
let queue: JobQueue;
/** Resolves the next evaluation whose jobs the App sent (its NOTIFY). */
let nextEvaluation: Array<(evaluation: string) => void> = [];
const honest = new Map<string, Report>();

beforeAll(async () => {
  db = await createTestDatabase();
  root = await makeTempDir('tandem-workers-forged-');
  world = await workerPoolCase(root);
  queue = await openJobQueue({ databaseUrl: db.url });
  await queue.listen(JOBS_CHANNEL, (evaluation) => {
    const waiting = nextEvaluation;
    nextEvaluation = [];
    for (const f of waiting) f(evaluation);
  });
});

afterAll(async () => {
  await queue?.close();
  await db?.drop();
  if (root) await removeTempDir(root);
});

/** One evaluation of the App, with `forge` acting as the worker pool. */
interface Forgery {
  evaluation: string;
  /** Claims the configuration as a worker does (the job it was given): its token. */
  claim(configuration: string): Promise<string>;
  /** Stores an answer under `token` the way a worker does (refused unless the claim is the token's). */
  answer(configuration: string, token: string, report: Report): Promise<boolean>;
  /** Writes a row straight into the answers table (anyone with the database), with a NOTIFY. */
  raw(row: {
    evaluation?: string;
    configuration: string;
    token?: string;
    outcome: object;
    report?: string;
  }): Promise<void>;
  honest(configuration: string): Promise<Report>;
}

async function evaluate(
  forge: (f: Forgery, events: EvaluationEvent[], done: (id: string) => Promise<void>) => Promise<void>,
): Promise<{ report?: Report; error?: Error; warnings: string[] }> {
  const warnings: string[] = [];
  const executor = new WorkersExecutor({
    databaseUrl: db.url,
    fallback: { run: () => Promise.reject(new Error('not a workers evaluation')) },
    leaseSeconds: 60,
    log: { warn: (_o, m) => warnings.push(m) },
  });
  const events: EvaluationEvent[] = [];
  const listeners: Array<() => void> = [];
  const sent = new Promise<string>((resolve) => nextEvaluation.push(resolve));
  const running = executor.run(world.spec, new AbortController().signal, (e) => {
    events.push(e);
    for (const l of listeners) l();
  });
  const outcome = running.then(
    (report) => ({ report }),
    (error: Error) => ({ error }),
  );
  try {
    const evaluation = await sent;
    const bundle = workerBundleSchema.parse(JSON.parse((await rows.getBundle(queue.db, evaluation))!));
    const f: Forgery = {
      evaluation,
      claim: async (configuration) => {
        const c = await claims.claimConfiguration(queue.db, {
          evaluation,
          configuration,
          jobId: randomUUID(),
          hostId: 'forger',
          leaseSeconds: 60,
        });
        if (!c.claimed) throw new Error(`${configuration} is held`);
        return c.token;
      },
      answer: (configuration, token, report) =>
        rows.putResult(queue.db, {
          evaluation,
          configuration,
          token,
          outcome: { kind: 'report', hostId: 'forger' },
          report: JSON.stringify(report),
        }),
      raw: async (r) => {
        const ev = r.evaluation ?? evaluation;
        await queue.db.query(
          `INSERT INTO tandem_workers.answers (evaluation, configuration, token, outcome, report)
           VALUES ($1, $2, $3, $4, $5)`,
          [ev, r.configuration, r.token ?? randomUUID(), JSON.stringify(r.outcome), r.report ?? null],
        );
        await queue.db.query(`SELECT pg_notify('${RESULTS_CHANNEL}', $1)`, [ev]);
      },
      honest: async (configuration) => {
        let report = honest.get(configuration);
        if (!report) {
          report = await engineRunner({ host: { cacheDir: path.join(root, 'cache') }, sandbox: 'process' })({
            bundle,
            suiteDir: world.spec.suiteDir,
            configuration,
            signal: new AbortController().signal,
          });
          honest.set(configuration, report);
        }
        return structuredClone(report);
      },
    };
    // Resolves once the App judged the configuration (its progress event).
    const done = (id: string) =>
      new Promise<void>((resolve) => {
        const check = () => {
          if (events.some((e) => e.type === 'configuration-done' && e.id === id)) resolve();
        };
        listeners.push(check);
        check();
      });
    await forge(f, events, done);
    return { ...(await outcome), warnings };
  } finally {
    await outcome;
    await executor.close();
  }
}

/** Both configurations answered honestly, each under its own claim. */
async function answerHonestly(f: Forgery, only: readonly string[] = ['base', 'full']): Promise<void> {
  for (const c of only) expect(await f.answer(c, await f.claim(c), await f.honest(c))).toBe(true);
}

/**
 * The report as the App publishes it, read as GitHub renders it (CommonMark): nothing a worker
 * wrote is a link, an image, raw HTML or a mention there (in code it is only text).
 */
function expectPublishedSafely(report: Report): void {
  const tokens = new MarkdownIt('commonmark', { html: true }).parse(
    renderMarkdown(report, { reveal: 'names' }),
    {},
  );
  const inline = tokens.flatMap((t) => t.children ?? []);
  expect(inline.filter((t) => t.type === 'link_open').map((t) => t.attrGet('href'))).not.toContainEqual(
    expect.stringContaining('evil.example'),
  );
  // The report's own HTML (<details>) is there; the worker's <img> is not.
  const html = [...tokens, ...inline].filter((t) => t.type === 'html_inline' || t.type === 'html_block');
  expect(html.filter((t) => /<img/i.test(t.content))).toEqual([]);
  expect(inline.filter((t) => t.type === 'image')).toEqual([]);
  expect(inline.filter((t) => t.type === 'text' && /(^|\s)@octocat/.test(t.content))).toEqual([]);
  // The text outside code, where a worker's words could have been Markdown, was escaped.
  expect(inline.some((t) => t.type === 'text' && t.content.includes('claim your prize'))).toBe(
    inline.some((t) => t.type === 'text' && t.content.includes('[claim your prize]')),
  );
}

/** A copy of an honest report whose tests all fail: the lie a forger would want believed. */
function failing(report: Report): Report {
  for (const run of report.partial!.runs)
    for (const g of run.groups) for (const t of g.tests) t.status = 'failed';
  return report;
}

let baseline: Report;

describe('forged worker answers', () => {
  it('an honest pool resolves the change (the baseline)', async () => {
    const { report, error } = await evaluate((f) => answerHonestly(f));
    expect(error).toBeUndefined();
    expect(report!.verdict.resolved).toBe(true);
    baseline = report!;
  }, 120_000);

  it('are not read when stored under no claim, or under the claim of another configuration', async () => {
    const { report, warnings } = await evaluate(async (f) => {
      // Anyone with the database: a failing "full", under no claim at all.
      await f.raw({
        configuration: 'full',
        outcome: { kind: 'report', hostId: 'forger' },
        report: JSON.stringify(failing(await f.honest('full'))),
      });
      // A worker given "base" answering "full" too, under base's claim.
      const baseToken = await f.claim('base');
      await f.raw({
        configuration: 'full',
        token: baseToken,
        outcome: { kind: 'report', hostId: 'forger' },
        report: JSON.stringify(failing(await f.honest('full'))),
      });
      // A worker answering a configuration under a token that is not the claim's: refused on write.
      expect(await f.answer('full', randomUUID(), failing(await f.honest('full')))).toBe(false);
      expect(await f.answer('base', baseToken, await f.honest('base'))).toBe(true);
      await answerHonestly(f, ['full']);
    });
    expect(report!.verdict).toEqual(baseline.verdict);
    expect(report!.infraErrors).toEqual([]);
    expect(warnings.filter((w) => w.includes('not stored under the configuration claim'))).toHaveLength(2);
  }, 120_000);

  it("grade with the App's own suite lists and groups, whatever the worker's report says", async () => {
    const { report } = await evaluate(async (f) => {
      const base = await f.honest('base');
      base.partial!.failToPass = ['check::x::nothing of the kind'];
      base.partial!.passToPass = [];
      base.partial!.groups = [{ name: 'check', repo: 'acme/elsewhere' }];
      expect(await f.answer('base', await f.claim('base'), base)).toBe(true);
      await answerHonestly(f, ['full']);
    });
    expect(report!.verdict).toEqual(baseline.verdict);
    expect(report!.configurations.map((c) => [c.id, c.outcome])).toEqual(
      baseline.configurations.map((c) => [c.id, c.outcome]),
    );
  }, 120_000);

  it('make a report with tampered hidden-test names its configuration’s infrastructure error', async () => {
    const { report } = await evaluate(async (f) => {
      await answerHonestly(f, ['base']);
      const full = await f.honest('full');
      for (const g of full.partial!.runs[0]!.groups)
        g.tests = [{ id: `invented::Suite::${EVIL_LINK} ${MENTION}`, status: 'passed' }];
      expect(await f.answer('full', await f.claim('full'), full)).toBe(true);
    });
    expect(report!.verdict.resolved).not.toBe(true);
    expect(report!.configurations.find((c) => c.id === 'full')?.outcome).toBe('error');
    expect(report!.infraErrors.map((e) => e.message).join('\n')).toContain(
      'holds test groups the suite does not have',
    );
    expectPublishedSafely(report!);
  }, 120_000);

  it('refuse a report of another change, another configuration or other states; never a verdict', async () => {
    const { report, error } = await evaluate(async (f) => {
      // The full configuration's report, relabelled as base: states base never applies.
      const relabelled = await f.honest('full');
      relabelled.partial!.runs[0]!.id = 'base';
      relabelled.partial!.shard = 'base';
      expect(await f.answer('base', await f.claim('base'), relabelled)).toBe(true);
      // A report of another change (another evaluation's, replayed).
      const other = await f.honest('full');
      other.name = 'linked change acme/other#9';

      expect(await f.answer('full', await f.claim('full'), other)).toBe(true);
    });
    expect(report).toBeUndefined();
    expect(error?.name).toBe('InfraError');
    expect(error?.message).toContain('ran other states');
  }, 120_000);

  it('refuse a report that names another clone URL for the repository', async () => {
    const { report } = await evaluate(async (f) => {
      await answerHonestly(f, ['base']);
      const full = await f.honest('full');
      full.targets[0]!.url = 'https://evil.example/acme/api.git';
      expect(await f.answer('full', await f.claim('full'), full)).toBe(true);
    });
    expect(report!.configurations.find((c) => c.id === 'full')?.outcome).toBe('error');
    expect(report!.infraErrors.map((e) => e.message)).toEqual([
      "the worker's report for full is of another change (its repositories)",
    ]);
    expect(JSON.stringify(report)).not.toContain('evil.example');
  }, 120_000);

  it('cap what a worker says of an error, and quote it escaped', async () => {
    const { report } = await evaluate(async (f) => {
      await answerHonestly(f, ['base']);
      const token = await f.claim('full');
      const message = `${EVIL_LINK} ${MENTION} <img src=x> ${'x'.repeat(20_000)}`;
      expect(
        await rows.putResult(queue.db, {
          evaluation: f.evaluation,
          configuration: 'full',
          token,
          outcome: { kind: 'infra', hostId: 'forger', error: { kind: 'engine', message } },
        }),
      ).toBe(true);
    });
    const quoted = report!.infraErrors.map((e) => e.message).join('\n');
    expect(quoted.length).toBeLessThanOrEqual(2_000);
    expect(report!.configurations.find((c) => c.id === 'full')?.outcome).toBe('error');
    expectPublishedSafely(report!);
  }, 120_000);

  it('do not read an oversized outcome', async () => {
    const { report } = await evaluate(async (f) => {
      await answerHonestly(f, ['base']);
      await f.raw({
        configuration: 'full',
        outcome: { kind: 'infra', hostId: 'forger', error: { kind: 'engine', message: 'y'.repeat(200_000) } },
      });
    });
    const full = report!.infraErrors.find((e) => e.configuration === 'full');
    expect(full?.message).toContain('over its size cap');
    expect(JSON.stringify(report).length).toBeLessThan(100_000);
  }, 120_000);

  it('ignore a second answer for a finished configuration and an answer for another evaluation', async () => {
    const { report } = await evaluate(async (f, _events, done) => {
      const token = await f.claim('base');
      expect(await f.answer('base', token, await f.honest('base'))).toBe(true);
      await done('base');
      // The accepted row rewritten, a second row for it, and a row for an evaluation that is not this one.
      const lie = JSON.stringify(failing(await f.honest('base')));
      await queue.db.query(
        `UPDATE tandem_workers.answers SET report = $2 WHERE evaluation = $1 AND configuration = 'base'`,
        [f.evaluation, lie],
      );
      expect(await f.answer('base', token, failing(await f.honest('base')))).toBe(false);
      await f.raw({ configuration: 'base', outcome: { kind: 'report', hostId: 'forger' }, report: lie });
      await f.raw({
        evaluation: randomUUID(),
        configuration: 'full',
        outcome: { kind: 'report', hostId: 'forger' },
        report: JSON.stringify(failing(await f.honest('full'))),
      });
      await answerHonestly(f, ['full']);
    });
    expect(report!.verdict).toEqual(baseline.verdict);
    expect(report!.infraErrors).toEqual([]);
  }, 120_000);
});
