/**
 * The App's store on its candidate backends, each in a child process of its own (so its memory
 * is its own): SQLite (better-sqlite3, the baseline), PGlite (PostgreSQL in WASM, in-process, one
 * folder) and, when the test server answers, a PostgreSQL server (scripts/start-postgres.sh).
 * Per backend: open + migrate of a new database, reopening it, 1,000 delivery claims (one
 * transaction each), an evaluation's write/read cycle (create → running → members → verdict →
 * kept report → published, three check runs, then the reads a reuse and `/tandem merge` do),
 * peak RSS and size on disk; printed as ratios against SQLite in the same run.
 * `BENCH_ONLY=store npm run bench` runs only this.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Store } from '../src/app/store/store.ts';
import type { Driver } from '../src/app/store/store-driver.ts';

const BACKENDS = ['sqlite', 'pglite', 'postgres'] as const;
type Backend = (typeof BACKENDS)[number];

export interface StoreFigures {
  backend: Backend;
  openMs: number;
  reopenMs: number;
  claimsMs: number;
  cycleMs: number;
  maxRssMb: number;
  diskMb: number | null;
}

const CLAIMS = 1_000;
const CYCLES = 200;
const REPORT = 'x'.repeat(20_000);
const HEAD = 'a'.repeat(40);

async function openDriver(backend: Backend, target: string): Promise<Driver> {
  if (backend === 'pglite') return (await import('./pglite-driver.ts')).openPglite(target);
  if (backend === 'sqlite') return (await import('../src/app/store/sqlite-driver.ts')).openSqlite(target);
  return (await import('../src/app/store/postgres-driver.ts')).openPostgres(target);
}

async function timed<T>(fn: () => Promise<T>): Promise<[T, number]> {
  const t0 = performance.now();
  const out = await fn();
  return [out, performance.now() - t0];
}

async function cycle(s: Store, n: number): Promise<void> {
  const members = ['api', 'web', 'schema'].map((r) => `acme/${r}#${n}`);
  const id = await s.evaluations.create({
    setKey: members[0]!,
    seed: members[0]!,
    installationId: 1,
    matrix: null,
  });
  await s.evaluations.start(id);
  await s.evaluations.setMembers(
    id,
    members.map((key) => ({ key, headSha: HEAD })),
  );
  for (const [i, key] of members.entries())
    await s.checkRuns.save({ pullKey: key, headSha: HEAD, checkRunId: n * 10 + i, evaluationId: id });
  await s.evaluations.recordVerdict(id, { outcome: 'resolved', mergeOrder: ['acme/schema', 'acme/api'] });
  await s.evaluations.keepResult(id, { fingerprint: `f${n}`, report: REPORT });
  await s.evaluations.publish(id);
  await s.evaluations.lastPublished(members[0]!);
  await s.evaluations.verdict(id);
  await s.evaluations.latestCovering([members[1]!]);
  for (const key of members) await s.checkRuns.open(key);
}

function du(target: string): number | null {
  const r = spawnSync('du', ['-sk', target.endsWith('.db') ? path.dirname(target) : target], {
    encoding: 'utf8',
  });
  return r.status === 0 ? Number(r.stdout.split('\t')[0]) / 1024 : null;
}

/** In the child: one backend, figures as one JSON line on stdout. */
async function child(backend: Backend, target: string): Promise<void> {
  const [store, openMs] = await timed(async () => Store.on(await openDriver(backend, target)));
  await store.close();
  const [s, reopenMs] = await timed(async () => Store.on(await openDriver(backend, target)));
  const [, claimsMs] = await timed(async () => {
    for (let i = 0; i < CLAIMS; i++) await s.deliveries.claim(`delivery-${i}`, 'pull_request', `pr-${i}`);
  });
  const [, cyclesMs] = await timed(async () => {
    for (let n = 0; n < CYCLES; n++) await cycle(s, n);
  });
  await s.close();
  const figures: StoreFigures = {
    backend,
    openMs,
    reopenMs,
    claimsMs,
    cycleMs: cyclesMs / CYCLES,
    maxRssMb: process.resourceUsage().maxRSS / 1024,
    diskMb: backend === 'postgres' ? null : du(target),
  };
  process.stdout.write(`${JSON.stringify(figures)}\n`);
}

/** Runs each backend in its own process; PostgreSQL only when its test server answers. */
export async function runStoreBench(log: (s: string) => void = () => {}): Promise<StoreFigures[]> {
  const out: StoreFigures[] = [];
  const self = fileURLToPath(import.meta.url);
  for (const backend of BACKENDS) {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'tandem-store-bench-'));
    let database: { url: string; drop(): Promise<void> } | undefined;
    try {
      let target = backend === 'sqlite' ? path.join(dir, 'tandem.db') : path.join(dir, 'pglite');
      if (backend === 'postgres') {
        const { createTestDatabase } = await import('../test/support/postgres-database.ts');
        database = await createTestDatabase().catch((e: Error) => {
          log(`store: PostgreSQL server skipped (${e.message})`);
          return undefined;
        });
        if (!database) continue;
        target = database.url;
      }
      log(`store: ${backend}…`);
      const r = spawnSync(process.execPath, ['--import', 'tsx', self, '--child', backend, target], {
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      if (r.status !== 0) throw new Error(`store bench on ${backend} exited ${r.status}`);
      out.push(JSON.parse(r.stdout.trim().split('\n').at(-1)!) as StoreFigures);
    } finally {
      await database?.drop();
      rmSync(dir, { recursive: true, force: true });
    }
  }
  return out;
}

export function printStoreBench(figures: readonly StoreFigures[]): string {
  const base = figures.find((f) => f.backend === 'sqlite');
  const cell = (v: number | null, b: number | null | undefined, unit: string) =>
    v === null ? '–' : `${v.toFixed(v < 10 ? 2 : 0)}${unit}${b ? ` (×${(v / b).toFixed(1)})` : ''}`;
  const rows = figures.map((f) =>
    [
      f.backend.padEnd(8),
      cell(f.openMs, base?.openMs, ' ms').padEnd(18),
      cell(f.reopenMs, base?.reopenMs, ' ms').padEnd(18),
      cell(f.claimsMs, base?.claimsMs, ' ms').padEnd(18),
      cell(f.cycleMs, base?.cycleMs, ' ms').padEnd(18),
      cell(f.maxRssMb, base?.maxRssMb, ' MB').padEnd(18),
      cell(f.diskMb, base?.diskMb, ' MB'),
    ].join(' '),
  );
  return [
    `App store backends (ratios against SQLite in the same run; ${CLAIMS} claims, ${CYCLES} evaluation cycles):`,
    `${'backend'.padEnd(8)} ${'open+migrate'.padEnd(18)} ${'reopen'.padEnd(18)} ${`${CLAIMS} claims`.padEnd(18)} ${'eval cycle'.padEnd(18)} ${'peak RSS'.padEnd(18)} disk`,
    ...rows,
  ].join('\n');
}

if (process.argv[2] === '--child') {
  await child(process.argv[3] as Backend, process.argv[4]!);
} else if (process.argv[1] === fileURLToPath(import.meta.url)) {
  process.stdout.write(`${printStoreBench(await runStoreBench((s) => process.stderr.write(`${s}\n`)))}\n`);
}
