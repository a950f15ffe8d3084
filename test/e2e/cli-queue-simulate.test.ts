/**
 * `tandem queue simulate TRACE` through bin/tandem.js: the shipped 200-set trace replayed through
 * the queue logic beside the serial baseline (text and --json), a hand-written trace whose every
 * figure is known, and bad traces named by file, line and field (exit 2).
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT, runCli } from '../helpers/example-cases.ts';
import { makeTempDir, removeTempDir } from '../helpers/git-fixtures.ts';

const TRACE_200 = path.join(REPO_ROOT, 'perf', 'queue-trace-200.jsonl');
let dir: string;

beforeAll(async () => {
  dir = await makeTempDir('tandem-queue-sim-');
});
afterAll(() => removeTempDir(dir));

async function traceFile(name: string, lines: unknown[]): Promise<string> {
  const file = path.join(dir, name);
  await writeFile(file, `${lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n')}\n`);
  return file;
}

describe('tandem queue simulate', () => {
  it('prints the queue figures beside the serial baseline for the shipped 200-set trace', async () => {
    const r = await runCli(['queue', 'simulate', TRACE_200]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/200 sets, T = \d+ s \(median evaluation\), retries 2/);
    expect(r.stdout).toMatch(/queue \(budget 4\)\s+serial/);
    for (const row of [
      'time to land p50 (T)',
      'time to land p95 (T)',
      'evaluations per landed set',
      'wasted evaluations',
      'innocent evictions',
    ])
      expect(r.stdout).toContain(row);
  });

  it('--json gives both runs; on the 200-set trace the queue beats serial and meets the goals', async () => {
    const r = await runCli(['queue', 'simulate', TRACE_200, '--json', '--speculation', '4']);
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(report).toMatchObject({ sets: 200, speculation: 4, retries: 2 });
    expect(report.queue.landed + report.queue.evicted).toBe(200);
    expect(report.queue.p50).toBeLessThanOrEqual(1.5);
    expect(report.queue.p95).toBeLessThanOrEqual(4);
    expect(report.queue.evaluationsPerLanded).toBeLessThanOrEqual(1.6);
    expect(report.queue.innocentEvictions).toBe(0);
    expect(report.serial.p50).toBeGreaterThan(2 * report.queue.p50);
  });

  it('a small trace gives the figures worked out by hand', async () => {
    // a and b share acme/api: b is tested on top of a and lands right after it; c (acme/web) is
    // independent and fails; d (acme/web) arrives while c runs, is tested on top of it, then again without it.
    const file = await traceFile('small.jsonl', [
      '# a comment line, then four sets',
      { id: 'a', arrival: 0, repos: ['acme/api'], evaluation: 100, outcome: 'pass' },
      { id: 'b', arrival: 0, repos: ['acme/api', 'acme/schema'], evaluation: 100, outcome: 'pass' },
      { id: 'c', arrival: 0, repos: ['acme/web'], evaluation: 100, outcome: 'fail' },
      { id: 'd', arrival: 50, repos: ['acme/web'], evaluation: 100, outcome: 'pass' },
    ]);
    const r = await runCli(['queue', 'simulate', file, '--json']);
    expect(r.stderr).toBe('');
    const { queue, serial, tSeconds } = JSON.parse(r.stdout);
    expect(tSeconds).toBe(100);
    // a, b land at 100 (1 T); d: its run on c cancelled at 100, again 100..200, lands at 200 (1.5 T after arrival).
    expect(queue).toMatchObject({
      landed: 3,
      evicted: 1,
      p50: 1,
      p95: 1.5,
      evaluationsStarted: 5,
      wasted: 1,
      innocentEvictions: 0,
    });
    // serial: a 0..100, b 100..200, c 200..300 (evicted), d 300..400: lands 1, 2, 3.5 T after arrival.
    expect(serial).toMatchObject({
      landed: 3,
      evicted: 1,
      p50: 2,
      p95: 3.5,
      evaluationsStarted: 4,
      wasted: 0,
    });
  });

  it('a bad line is bad input naming the file, the line and the field', async () => {
    const file = await traceFile('bad.jsonl', [
      { id: 'a', arrival: 0, repos: ['acme/api'], evaluation: 100, outcome: 'pass' },
      { id: 'b', arrival: 0, repos: ['acme/api'], evaluation: -1, outcome: 'pass' },
    ]);
    const r = await runCli(['queue', 'simulate', file]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(new RegExp(`^tandem: ${file}:2: field "evaluation": `));
    const notJson = await traceFile('not-json.jsonl', ['{"id": "a",']);
    const r2 = await runCli(['queue', 'simulate', notJson]);
    expect(r2.code).toBe(2);
    expect(r2.stderr).toContain(`${notJson}:1: not JSON`);
    const unknown = await traceFile('unknown.jsonl', [
      { id: 'a', arrival: 0, repos: ['acme/api'], evaluation: 1, outcome: 'pass', failsWith: ['zz'] },
    ]);
    const r3 = await runCli(['queue', 'simulate', unknown]);
    expect(r3.stderr).toContain(`${unknown}:1: field "failsWith": no set "zz" in the trace`);
    const r4 = await runCli(['queue', 'simulate', TRACE_200, '--speculation', '0']);
    expect(r4.code).toBe(2);
    expect(r4.stderr).toContain('option --speculation: expected a whole number from 1 to 1000, got "0"');
  });
});
