/**
 * Reading the report a workflow run left: the `tandem-report` artifact as a real zip (Info-ZIP,
 * as upload-artifact makes), downloaded over HTTP from the stand-in. Anything short of one
 * complete report is an error that names the run and what was wrong.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readRunReport } from '../../src/app/executors/actions-report.ts';
import type { GitHubPort } from '../../src/app/port/github-port.ts';
import { octokitPort } from '../../src/app/port/octokit-port.ts';
import { standInClient, useStandIn } from './app-fixtures.ts';
import { resolvedReport } from './report-fixtures.ts';

const use = useStandIn('tandem-artifact-');

const evaluator = 'acme/suites';
const run = { id: 5, url: 'https://github.test/acme/suites/actions/runs/5', conclusion: 'success' };

async function withArtifact(files: Record<string, string> | undefined): Promise<GitHubPort> {
  const standIn = await use.start();
  standIn.addRepo({ owner: 'acme', name: 'suites', private: true });
  const dir = await use.dir();
  if (files) {
    const src = join(dir, 'src');
    mkdirSync(src);
    for (const [name, content] of Object.entries(files)) writeFileSync(join(src, name), content);
    execFileSync('zip', ['-q', '-j', join(dir, 'a.zip'), ...Object.keys(files).map((f) => join(src, f))]);
    standIn.addArtifact({
      owner: 'acme',
      repo: 'suites',
      runId: run.id,
      name: 'tandem-report',
      zip: readFileSync(join(dir, 'a.zip')),
    });
  }
  return octokitPort(standInClient(standIn));
}

describe('readRunReport', () => {
  it('returns the validated report of the artifact', async () => {
    const report = resolvedReport();
    const gh = await withArtifact({ 'tandem-report.json': JSON.stringify(report) });
    await expect(readRunReport(gh, evaluator, run)).resolves.toEqual(report);
  });

  it.each<[string, Record<string, string> | undefined, string]>([
    ['no artifact', undefined, 'ended success without a `tandem-report` artifact'],
    ['no JSON file', { 'notes.txt': 'hi' }, 'holds 0 JSON files, not one report'],
    ['two JSON files', { 'a.json': '{}', 'b.json': '{}' }, 'holds 2 JSON files, not one report'],
    ['invalid JSON', { 'r.json': '{"schemaVersion":' }, 'artifact is not valid JSON'],
    ['not a report', { 'r.json': '{"schemaVersion": 1}' }, 'artifact is not a Tandem report ('],
    [
      'a shard’s partial report',
      { 'r.json': JSON.stringify({ ...resolvedReport(), partial: { shard: '1/2', runs: [], groups: [] } }) },
      "artifact is a shard's partial report, not the merged one",
    ],
  ])('refuses %s, naming the run', async (_what, files, message) => {
    const gh = await withArtifact(files);
    const err = await readRunReport(gh, evaluator, run).then(
      () => undefined,
      (e: Error) => e,
    );
    expect(err?.message).toContain(`the workflow run ${run.url}`);
    expect(err?.message).toContain(message);
  });
});
