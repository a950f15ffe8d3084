/**
 * What a step publishes through `@actions/core`, read back from the runner's files and stdout
 * commands: outputs, job summary, annotations, the failure, and a summary that cannot be written
 * (a warning, never a crash). Also the settings the step reads from its environment.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { appendSummary, publishFailure, publishReport } from '../../src/action/outputs.ts';
import { readSettings } from '../../src/action/settings.ts';
import type { Report } from '../../src/core/report.schema.ts';
import { parseCommands, parseOutputFile } from '../e2e/action-harness.ts';
import { makeTempDir, removeTempDir } from '../helpers/git-fixtures.ts';

const fixture = (name: string): Report =>
  JSON.parse(
    readFileSync(path.join(import.meta.dirname, '..', 'fixtures', 'reports', `${name}.json`), 'utf8'),
  );

let dir: string;
let stdout: string;
let outputFile: string;
let summaryFile: string;
const saved = { ...process.env };

beforeAll(async () => {
  dir = await makeTempDir('tandem-action-outputs-');
  // One summary file for the whole file: `core.summary` keeps the first path it was given.
  summaryFile = path.join(dir, 'summary', 'step-summary.md');
});
afterAll(async () => {
  await removeTempDir(dir);
});
beforeEach(() => {
  const stamp = Math.random().toString(36).slice(2);
  outputFile = path.join(dir, `output-${stamp}`);
  writeFileSync(outputFile, '');
  mkdirSync(path.dirname(summaryFile), { recursive: true });
  writeFileSync(summaryFile, '');
  process.env.GITHUB_OUTPUT = outputFile;
  process.env.GITHUB_STEP_SUMMARY = summaryFile;
  stdout = '';
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    stdout += String(chunk);
    return true;
  });
});
afterEach(() => {
  vi.restoreAllMocks();
  process.env = { ...saved };
  process.exitCode = 0;
});

const outputs = () => parseOutputFile(readFileSync(outputFile, 'utf8'));

describe('publishReport', () => {
  it('an unresolved report: outputs, summary, annotations on the failing tests, a failed step', async () => {
    const file = await publishReport(fixture('unresolved'), {
      reportPath: 'out/report.json',
      workspace: dir,
      hasSummaryFile: true,
      fileOf: (g) => (g === 'web' ? 'suites/web.test.js' : undefined),
    });
    expect(file).toBe(path.join(dir, 'out', 'report.json'));
    expect(JSON.parse(readFileSync(file, 'utf8')).outcome).toBe('unresolved');
    expect(outputs()).toEqual({
      'report-path': file,
      partial: 'false',
      resolved: 'false',
      verdict: 'unresolved',
    });
    expect(readFileSync(summaryFile, 'utf8')).toContain('JSON report: `out/report.json`');
    const errors = parseCommands(stdout).filter((c) => c.command === 'error');
    expect(errors.map((e) => e.properties)).toEqual([
      { title: 'Tandem: F2P test failed', file: 'suites/web.test.js' },
      { title: 'Tandem: P2P test failed' },
      {},
    ]);
    expect(errors.at(-1)?.message).toMatch(/^Tandem: not resolved: 2 F2P\/P2P test\(s\) do not pass/);
    expect(process.exitCode).toBe(1);
  });

  it('a resolved report passes the step with no error annotation', async () => {
    await publishReport(fixture('resolved'), { reportPath: 'r.json', workspace: dir, hasSummaryFile: true });
    expect(outputs()).toMatchObject({ verdict: 'resolved', resolved: 'true' });
    expect(parseCommands(stdout).filter((c) => c.command === 'error')).toEqual([]);
    expect(process.exitCode).toBe(0);
  });
});

describe('publishFailure and the summary', () => {
  it('without a summary file, the summary goes to the log; the verdict is error', async () => {
    await publishFailure('Tandem: bad input, no verdict: input "shard": no', false);
    expect(outputs()).toEqual({ resolved: 'false', verdict: 'error' });
    expect(readFileSync(summaryFile, 'utf8')).toBe('');
    expect(stdout).toContain('### Tandem');
    expect(parseCommands(stdout).at(-1)).toEqual({
      command: 'error',
      properties: {},
      message: 'Tandem: bad input, no verdict: input "shard": no',
    });
    expect(process.exitCode).toBe(1);
  });

  it('a summary that cannot be written is a warning, and the next one is not polluted by it', async () => {
    await appendSummary('zero', true); // the toolkit now holds the path
    rmSync(path.dirname(summaryFile), { recursive: true });
    await expect(appendSummary('first', true)).resolves.toBeUndefined();
    expect(parseCommands(stdout)).toContainEqual(
      expect.objectContaining({
        command: 'warning',
        message: expect.stringMatching(/^Tandem: cannot write the job summary: /),
      }),
    );
    mkdirSync(path.dirname(summaryFile), { recursive: true });
    await appendSummary('second', true);
    expect(readFileSync(summaryFile, 'utf8')).toBe('second\n');
  });
});

describe('readSettings', () => {
  const context = { apiUrl: 'http://127.0.0.1:9/api/v3/', payload: { inputs: {} } };

  it('resolves the workspace and picks the cache: TANDEM_CACHE_DIR, else RUNNER_TEMP, else the user cache', () => {
    const s = readSettings(
      { GITHUB_WORKSPACE: 'repo', RUNNER_TEMP: '/runner/tmp', GITHUB_STEP_SUMMARY: '/s' },
      context,
      '/work',
    );
    expect(s).toMatchObject({
      workspace: '/work/repo',
      apiUrl: 'http://127.0.0.1:9/api/v3',
      eventPayload: { inputs: {} },
      hasSummaryFile: true,
      cacheDir: '/runner/tmp/tandem-cache',
    });
    expect(readSettings({ TANDEM_CACHE_DIR: 'c', RUNNER_TEMP: '/r' }, context, '/work').cacheDir).toBe(
      '/work/c',
    );
    const local = readSettings({}, context, '/work');
    expect(local.workspace).toBe('/work');
    expect(local.hasSummaryFile).toBe(false);
    expect(local.cacheDir).toBe(local.host.cacheDir);
  });
});
