/**
 * `tandem bench report` (the built CLI) on a run that graded no repository (nothing submitted
 * ran): the per-repository rates are "—", not 0%.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { summarizeRun } from '../../src/core/bench-summary.ts';
import { runCli } from '../helpers/example-cases.ts';
import { useFileTempDir } from '../helpers/test-cleanup.ts';

const dir = useFileTempDir('tandem-bench-nodata-');

describe('tandem bench report without per-repository data', () => {
  it('shows — for the per-repository rates', async () => {
    const runDir = path.join(dir(), 'r1');
    await mkdir(runDir, { recursive: true });
    const summary = summarizeRun([], { instanceIds: ['acme-1'], submittedIds: [], model: 'm', runId: 'r1' });
    await writeFile(path.join(runDir, 'm.r1.json'), JSON.stringify(summary));
    const md = path.join(dir(), 'report.md');
    const r = await runCli(['bench', 'report', runDir, '--markdown', md]);
    expect(r.code, r.stderr).toBe(0);
    const text = await readFile(md, 'utf8');
    const row = text.split('\n').find((l) => l.startsWith('| 1 |'))!;
    expect(row, text).toBe('| 1 | m | 0/1 | 0 | — | — | — | 0 | 0 | 0 | 0 |');
  });
});
