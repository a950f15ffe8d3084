import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { InputError } from '../../src/core/errors.ts';
import { readJsonReport, writeJsonReport } from '../../src/report/json-report.ts';
import { renderMarkdown } from '../../src/report/markdown-report.ts';
import { resolvedReport, sampleReports } from './report-fixtures.ts';

const dir = mkdtempSync(join(tmpdir(), 'tandem-report-json-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('json report', () => {
  it('writes pretty, validated JSON and reads it back unchanged', () => {
    const report = resolvedReport();
    const path = join(dir, 'nested', 'report.json');
    writeJsonReport(path, report);
    const text = readFileSync(path, 'utf8');
    expect(text.startsWith('{\n  "outcome": "resolved",')).toBe(true);
    expect(text.endsWith('}\n')).toBe(true);
    expect(readJsonReport(path)).toEqual(report);
  });

  it('refuses to write an invalid report, naming the field', () => {
    const report = resolvedReport();
    (report.configurations[0] as { outcome: string }).outcome = 'maybe';
    expect(() => writeJsonReport(join(dir, 'bad.json'), report)).toThrow(/configurations\[0\]\.outcome/);
  });

  it('names the file and the field when reading an invalid report', () => {
    const path = join(dir, 'broken.json');
    const report = resolvedReport() as unknown as { verdict: { fixRate: unknown } };
    report.verdict.fixRate = 'all of it';
    writeFileSync(path, JSON.stringify(report));
    let error: unknown;
    try {
      readJsonReport(path);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(InputError);
    expect((error as InputError).file).toBe(path);
    expect((error as InputError).field).toBe('verdict.fixRate');
    expect((error as InputError).message).toContain(`${path}: field "verdict.fixRate":`);
  });

  it('explains unreadable files, bad JSON and an unsupported schemaVersion', () => {
    expect(() => readJsonReport(join(dir, 'absent.json'))).toThrow(/absent\.json: cannot read the report/);
    const notJson = join(dir, 'not.json');
    writeFileSync(notJson, '{ nope');
    expect(() => readJsonReport(notJson)).toThrow(/not\.json: not valid JSON/);
    const future = join(dir, 'future.json');
    writeFileSync(future, JSON.stringify({ ...resolvedReport(), schemaVersion: 2 }));
    expect(() => readJsonReport(future)).toThrow(/schemaVersion 2 is not supported \(this Tandem reads 1\)/);
  });

  // The sample reports under test/fixtures/reports are what other parts (App, Action, CLI) can test
  // against; this keeps them in step with grading. Refresh after a grading or schema change with
  // `TANDEM_UPDATE_FIXTURES=1 npx vitest run test/unit/report-json.test.ts` (then `npx biome format
  // --write test/fixtures/reports`: the comparison is on content, so formatting does not matter).
  for (const [name, build] of Object.entries(sampleReports)) {
    it(`fixture ${name}.json holds the graded sample`, () => {
      const path = join(import.meta.dirname, '..', 'fixtures', 'reports', `${name}.json`);
      if (process.env.TANDEM_UPDATE_FIXTURES === '1') writeJsonReport(path, build());
      const fixture = readJsonReport(path);
      expect(fixture).toEqual(build());
      expect(renderMarkdown(fixture, { reveal: 'names' })).toBe(renderMarkdown(build(), { reveal: 'names' }));
    });
  }
});
