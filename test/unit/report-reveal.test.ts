import { mkdtempSync, readdirSync, rmSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PublishedReports } from '../../src/app/evaluations/published-reports.ts';
import { reportSchema } from '../../src/core/report.schema.ts';
import { revealReport } from '../../src/report/report-reveal.ts';
import { T, unresolvedReport } from './report-fixtures.ts';

const names = Object.values(T);
const dir = mkdtempSync(join(tmpdir(), 'tandem-reports-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('revealReport', () => {
  const report = unresolvedReport();
  const full = (r: typeof report) => r.configurations.find((c) => c.role === 'full')!;

  it('counts: every test name becomes the same opaque label everywhere; no failure text', () => {
    const out = reportSchema.parse(revealReport(report, 'counts'));
    const text = JSON.stringify(out);
    for (const name of names) expect(text).not.toContain(name);
    expect(text).not.toContain('SECRET-ASSERTION');
    expect(out.tests.failToPass).toEqual(['F2P-1', 'F2P-2']);
    expect(out.tests.passToPass).toEqual(['P2P-1', 'P2P-2']);
    // Statuses line up with the original under the same label.
    const byLabel = new Map(full(out).tests.map((t) => [t.id, t.status]));
    report.tests.failToPass.forEach((id, i) => {
      expect(byLabel.get(`F2P-${i + 1}`)).toBe(full(report).tests.find((t) => t.id === id)!.status);
    });
    expect(out.tests_status.FAIL_TO_PASS.failure.every((id) => /^F2P-\d$/.test(id))).toBe(true);
    expect(out.verdict).toEqual(report.verdict);
  });

  it('names: names stay, failure text goes; messages: all of it; shards never carry raw runs', () => {
    const named = revealReport(report, 'names');
    expect(full(named).tests.map((t) => t.id)).toEqual(full(report).tests.map((t) => t.id));
    expect(JSON.stringify(named)).not.toContain('SECRET-ASSERTION');
    const all = revealReport(report, 'messages');
    expect(JSON.stringify(all)).toContain('SECRET-ASSERTION');
    const shard = { ...report, partial: { shard: '1/2', runs: [], groups: [] } };
    expect(revealReport(shard, 'messages').partial).toBeUndefined();
    // The input is left as it was.
    expect(JSON.stringify(report)).toContain('SECRET-ASSERTION');
  });
});

describe('PublishedReports', () => {
  it('saves under an unguessable token, serves it by path, refuses anything else', () => {
    const reports = new PublishedReports(join(dir, 'a'), 'https://tandem.example.test/base/');
    const url = reports.save(unresolvedReport(), 'counts')!;
    expect(url).toMatch(/^https:\/\/tandem\.example\.test\/tandem\/reports\/[\w-]{22}\.json$/);
    const path = new URL(url).pathname;
    expect(reportSchema.parse(JSON.parse(reports.read(path)!)).outcome).toBe('unresolved');
    for (const bad of ['/tandem/reports/../a.json', '/tandem/reports/x.json', `${path}x`, '/other.json'])
      expect(reports.read(bad)).toBeUndefined();
  });

  it('links nothing without a public URL, and keeps only the newest reports', () => {
    expect(
      new PublishedReports(join(dir, 'b'), undefined).save(unresolvedReport(), 'counts'),
    ).toBeUndefined();
    const reports = new PublishedReports(join(dir, 'c'), 'https://t.example/', 2);
    const first = new URL(reports.save(unresolvedReport(), 'counts')!).pathname;
    // Make the first one clearly the oldest, whatever the file system's time resolution.
    utimesSync(join(dir, 'c', first.split('/').pop()!), new Date(0), new Date(0));
    reports.save(unresolvedReport(), 'counts');
    reports.save(unresolvedReport(), 'counts');
    expect(readdirSync(join(dir, 'c'))).toHaveLength(2);
    expect(reports.read(first)).toBeUndefined();
  });
});
