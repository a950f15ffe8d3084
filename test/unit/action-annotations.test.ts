/** Annotations within GitHub's limits, the failure messages and the merge globs. */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_ERROR_ANNOTATIONS, reportAnnotations } from '../../src/action/annotations.ts';
import { failureMessage } from '../../src/action/outputs.ts';
import { expandGlobs } from '../../src/action/report-globs.ts';
import type { Report } from '../../src/core/report.schema.ts';
import { makeTempDir, removeTempDir } from '../helpers/git-fixtures.ts';

const fixture = (name: string): Report =>
  JSON.parse(
    readFileSync(path.join(import.meta.dirname, '..', 'fixtures', 'reports', `${name}.json`), 'utf8'),
  );

/** The unresolved fixture with `n` failing F2P tests in the full configuration. */
function manyFailing(n: number): Report {
  const r = fixture('unresolved');
  const full = r.configurations.find((c) => c.role === 'full')!;
  full.tests = Array.from({ length: n }, (_, i) => ({
    id: `g${i % 2}::Suite::test ${i}`,
    kind: 'F2P' as const,
    status: 'failed' as const,
    reason: `boom ${i}`,
  }));
  return r;
}

let dir: string;
beforeAll(async () => {
  dir = await makeTempDir('tandem-annotations-');
});
afterAll(async () => {
  await removeTempDir(dir);
});

describe('reportAnnotations', () => {
  it('annotates each failing F2P/P2P test of the full configuration, with its file when known', () => {
    const a = reportAnnotations(fixture('unresolved'), {
      fileOf: (g) => (g === 'web' ? 'suites/web.test.js' : undefined),
    });
    expect(a).toEqual([
      {
        level: 'error',
        message:
          'F2P test web::Form::submits the new field is failed with every pull request applied: SECRET-ASSERTION in web::Form::submits the new field',
        properties: { title: 'Tandem: F2P test failed', file: 'suites/web.test.js' },
      },
      {
        level: 'error',
        message:
          'P2P test api::Health::responds ok is failed with every pull request applied: SECRET-ASSERTION in api::Health::responds ok',
        properties: { title: 'Tandem: P2P test failed' },
      },
    ]);
  });

  it('honours reveal: names without failure text, counts without names', () => {
    const names = reportAnnotations(fixture('unresolved'), { reveal: 'names' });
    expect(names.map((x) => x.message)).toEqual([
      'F2P test web::Form::submits the new field is failed with every pull request applied',
      'P2P test api::Health::responds ok is failed with every pull request applied',
    ]);
    const counts = reportAnnotations(fixture('unresolved'), { reveal: 'counts' });
    expect(counts.map((x) => x.message)).toEqual([
      '1 F2P test(s) failing and 1 P2P test(s) regressed with every pull request applied (test names are not shown: reveal is "counts").',
    ]);
    const flaky = reportAnnotations(fixture('flaky'), { reveal: 'counts' }).filter(
      (x) => x.level === 'warning',
    );
    expect(flaky[0]!.message).not.toContain('::');
  });

  it('stays under GitHub’s 10 error annotations, leaving one for setFailed and summarising the rest', () => {
    const exact = reportAnnotations(manyFailing(MAX_ERROR_ANNOTATIONS - 1));
    expect(exact).toHaveLength(9);
    expect(exact.every((e) => e.properties.title === 'Tandem: F2P test failed')).toBe(true);

    const a = reportAnnotations(manyFailing(40));
    expect(a).toHaveLength(MAX_ERROR_ANNOTATIONS - 1);
    expect(a.slice(0, 8).map((e) => e.message.split(' is ')[0])).toEqual(
      Array.from({ length: 8 }, (_, i) => `F2P test g${i % 2}::Suite::test ${i}`),
    );
    const last = a.at(-1)!;
    expect(last.properties.title).toBe('Tandem: 32 more failing test(s) or error(s)');
    expect(last.message).toMatch(
      /^32 more problem\(s\) not annotated: g0::Suite::test 8; g1::Suite::test 9; /,
    );
    expect(last.message).toContain('g1::Suite::test 27, and 12 more.');
  });

  it('annotates infrastructure errors as such, and flaky tests as one warning', () => {
    const infra = reportAnnotations(fixture('infra-error'));
    expect(infra[0]).toEqual({
      level: 'error',
      message:
        'feature/web does not merge onto main [acme/web]. Infrastructure error, not a verdict on the code.',
      properties: { title: 'Tandem: infrastructure error (merge-conflict)' },
    });
    const flaky = reportAnnotations(fixture('flaky')).filter((x) => x.level === 'warning');
    expect(flaky).toEqual([
      {
        level: 'warning',
        message:
          '1 test(s) changed status between runs of the full configuration: web::Form::submits the new field (passed → failed)',
        properties: { title: 'Tandem: flaky tests' },
      },
    ]);
  });
});

describe('failureMessage', () => {
  it('is empty when resolved, says "not resolved" or "infrastructure error, not a verdict" otherwise', () => {
    expect(failureMessage(fixture('resolved'))).toBeUndefined();
    expect(failureMessage(fixture('unresolved'))).toMatch(
      /^Tandem: not resolved: 2 F2P\/P2P test\(s\) do not pass/,
    );
    expect(failureMessage(fixture('infra-error'))).toBe(
      'Tandem: infrastructure error, not a verdict on the code: the full configuration could not be evaluated: feature/web does not merge onto main',
    );
  });
});

describe('expandGlobs', () => {
  const at = (...files: string[]) => files.map((f) => path.join(dir, f));
  beforeAll(() => {
    for (const f of [
      'p/tandem-partial-2-of-2.json',
      'p/tandem-partial-1-of-2.json',
      'p/x.txt',
      'q/tandem-partial-3-of-3.json',
      'deep/a/b/r.json',
      '.hidden/h.json',
    ]) {
      mkdirSync(path.dirname(path.join(dir, f)), { recursive: true });
      writeFileSync(path.join(dir, f), '{}');
    }
  });

  it('matches * within a folder and ** across folders, sorted and absolute', () => {
    expect(expandGlobs(['p/tandem-partial-*.json'], dir)).toEqual(
      at('p/tandem-partial-1-of-2.json', 'p/tandem-partial-2-of-2.json'),
    );
    // Dot folders only when named.
    expect(expandGlobs(['**/*.json'], dir)).toHaveLength(4);
    expect(expandGlobs(['.hidden/*.json'], dir)).toEqual(at('.hidden/h.json'));
    expect(expandGlobs(['deep/**/r.json', 'p/x.txt'], dir)).toEqual(at('deep/a/b/r.json', 'p/x.txt'));
    expect(expandGlobs(['none/*.json', 'p/absent.json'], dir)).toEqual([]);
  });

  it('has the usual syntax: {a,b}, [...], ! exclusions, absolute patterns, one match per file', () => {
    expect(expandGlobs(['{p,q}/tandem-partial-*.json'], dir)).toEqual(
      at('p/tandem-partial-1-of-2.json', 'p/tandem-partial-2-of-2.json', 'q/tandem-partial-3-of-3.json'),
    );
    expect(expandGlobs(['p/tandem-partial-[13]-of-*.json', 'q/*-[!3]-*.json'], dir)).toEqual(
      at('p/tandem-partial-1-of-2.json'),
    );
    // A `!` line drops its matches from the others', wherever it stands.
    expect(expandGlobs(['!**/*-2-of-2.json', '**/tandem-partial-*.json', '!q/**'], dir)).toEqual(
      at('p/tandem-partial-1-of-2.json'),
    );
    expect(expandGlobs([`${dir}/p/*.txt`, 'p/x.*'], dir)).toEqual(at('p/x.txt'));
  });

  it('treats the workspace path literally, even with glob characters in it', () => {
    const odd = path.join(dir, 'ws [1] {a,b}');
    mkdirSync(path.join(odd, 'p'), { recursive: true });
    writeFileSync(path.join(odd, 'p', 'r.json'), '{}');
    expect(expandGlobs(['p/*.json'], odd)).toEqual([path.join(odd, 'p', 'r.json')]);
  });
});
