/**
 * Issue 18 item 6, on real git and Docker: without suite lists, the tests a PR's code makes its
 * test runner report (100 invented passing ones, and a failing one named with the base64 of the
 * hidden test it read) never raise the fix rate nor reach a published list. Only the all-base
 * run, which runs no PR code, names the expected tests; the report counts the others.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Report } from '../../src/core/report.schema.ts';
import { renderMarkdown } from '../../src/report/markdown-report.ts';
import { summaryTable } from '../../src/report/summary-table.ts';
import { dockerSuite } from '../helpers/docker-suite.ts';
import { SANDBOX_IMAGE, shellCase } from '../helpers/example-cases.ts';
import { reportText } from './attack-kit.ts';

const docker = dockerSuite('invented-tests');
const HIDDEN = '#!/bin/sh\n# the evaluator-owned check: the PR must add fixed.txt\ntest -f app/fixed.txt\n';
const HIDDEN_B64 = Buffer.from(HIDDEN).toString('base64').replace(/=+$/, '');

/** The repository's own runner: runs the hidden check and writes one TAP line for it. */
const RUNNER = [
  '#!/bin/sh',
  'out="$TANDEM_RESULTS/checks.tap"',
  'if sh "$TANDEM_HIDDEN/real.sh"; then r="ok 1 - real"; else r="not ok 1 - real"; fi',
  'printf "TAP version 13\\n1..1\\n%s\\n" "$r" > "$out"',
  '',
].join('\n');

/** The PR's runner: the real check still fails, plus 100 invented passes and the leak. */
const FORGING_RUNNER = [
  '#!/bin/sh',
  'out="$TANDEM_RESULTS/checks.tap"',
  'if sh "$TANDEM_HIDDEN/real.sh"; then r="ok 1 - real"; else r="not ok 1 - real"; fi',
  'printf "TAP version 13\\n1..102\\n%s\\n" "$r" > "$out"',
  'i=2; while [ $i -le 101 ]; do echo "ok $i - forged $i" >> "$out"; i=$((i+1)); done',
  'leak=$(base64 -w0 "$TANDEM_HIDDEN/real.sh" | tr -d =)',
  'echo "not ok 102 - $leak" >> "$out"',
  '',
].join('\n');

let report: Report;

beforeAll(async () => {
  const c = await shellCase({
    name: 'invented-tests',
    repos: [{ name: 'app', base: { 'run-tests.sh': RUNNER }, head: { 'run-tests.sh': FORGING_RUNNER } }],
    suite: {
      name: 'invented-tests-suite',
      image: SANDBOX_IMAGE,
      tests: [
        {
          name: 'checks',
          files: ['hidden/real.sh'],
          run: 'sh app/run-tests.sh',
          results: { format: 'tap', path: 'checks.tap' },
        },
      ],
    },
    hidden: { 'hidden/real.sh': HIDDEN },
  });
  docker.track(c.root);
  report = await docker.evaluate(c.input, { useResultCache: false });
}, 240_000);

describe('tests the PR invents', () => {
  it('ran as the attack intends: the PR run reported all 102 tests', () => {
    expect(report.outcome).not.toBe('error');
    expect(report.configurations.find((c) => c.id === 'full')?.groups[0]?.status).toBe('reported');
  });

  it('never raise the fix rate: the one real test fails, so the fix rate is 0', () => {
    expect(report.tests.failToPass).toEqual(['checks::::real']);
    expect(report.tests.passToPass).toEqual([]);
    expect(report.verdict.fixRate).toBe(0);
    expect(report.verdict.resolved).toBe(false);
    expect(report.configurations.find((c) => c.id === 'full')).toMatchObject({ passed: 0, total: 1 });
  });

  it('are counted in the report, never named: not in the JSON, the Markdown or the terminal summary', () => {
    expect(report.tests.seenOnlyWithPr).toBe(101);
    const published = [
      reportText(report),
      renderMarkdown(report, { reveal: 'names' }),
      summaryTable(report, { color: false }),
    ];
    for (const text of published) {
      expect(text).not.toContain(HIDDEN_B64.slice(0, 24));
      expect(text).not.toContain('forged');
    }
    expect(published[1]).toContain('101 tests seen only with the PR');
    expect(published[2]).toContain('101 tests seen only with the PR');
  });
});
