import { describe, expect, it } from 'vitest';
import { ResultParseError } from '../../../src/engine/results/parsers/parser.ts';
import { parseTap } from '../../../src/engine/results/parsers/tap.ts';
import { idsAndStatuses, NODE_EDGE_RUN, NODE_RUN, resultFile } from '../../helpers/result-fixtures.ts';

describe('parseTap: node --test tap reporter (real output)', () => {
  const results = parseTap(resultFile('node-tap.tap'), 'unit');

  it('names leaves by their subtest path and drops the suites that close them', () => {
    expect(idsAndStatuses(results)).toEqual(NODE_RUN);
  });

  it('takes the message from the YAML diagnostic and the duration from duration_ms', () => {
    const fail = results.find((r) => r.id === 'unit::Calculator > nested group::deep fail');
    expect(fail?.message).toBe(
      'Expected values to be strictly deep-equal:\n+ actual - expected\n\n  {\n+   a: 1\n-   a: 2\n  }',
    );
    expect(fail?.durationMs).toBeCloseTo(1.054884, 6);
    expect(results[0]?.message).toBeUndefined();
  });

  it('reports children cancelled by a failing hook, and suites that threw before any test', () => {
    const edge = parseTap(resultFile('node-tap-edge.tap'), 'unit');
    expect(idsAndStatuses(edge)).toEqual(NODE_EDGE_RUN);
    const cancelled = 'test did not finish before its parent and was cancelled';
    expect(edge.map((r) => r.message)).toEqual([
      cancelled,
      cancelled,
      'describe body boom',
      undefined,
      undefined,
    ]);
  });
});

describe('parseTap: TAP 14', () => {
  const results = parseTap(resultFile('tap14-subtests-bail.tap'), 'cli');

  it('handles nested subtests, SKIP/TODO, subtests without a comment, duplicates, and stops at bail out', () => {
    expect(results.map((r) => [r.id, r.status, r.message])).toEqual([
      ['cli::parser > tokens::splits words', 'passed', undefined],
      ['cli::parser > tokens::keeps quotes', 'failed', 'expected "a b" to be one token'],
      ['cli::parser::empty input', 'skipped', 'not implemented yet'],
      ['cli::parser::unicode', 'skipped', 'waiting on upstream'],
      ['cli::subtest without comment::unnamed subtest child', 'passed', undefined],
      ['cli::::same name', 'passed', undefined],
      ['cli::::same name #2', 'passed', undefined],
      ['cli::network::connects', 'passed', undefined],
    ]);
  });

  it('counts a passing TODO as skipped, and names unnamed points by number', () => {
    const text = 'TAP version 13\nok 1 - works # TODO not really\nnot ok 2\nok 3 # skip\n1..3\n';
    expect(parseTap(text, 'g').map((r) => [r.id, r.status, r.message])).toEqual([
      ['g::::works', 'skipped', 'not really'],
      ['g::::(unnamed #2)', 'failed', undefined],
      ['g::::(unnamed #3)', 'skipped', undefined],
    ]);
  });

  it('ignores non-TAP lines around a real stream', () => {
    const text = 'npm WARN something\nTAP version 13\nok 1 - a\nrandom log line\nnot ok 2 - b\n1..2\n';
    expect(parseTap(text, 'g').map((r) => r.status)).toEqual(['passed', 'failed']);
  });

  it('reads an empty plan as zero tests; a stream cut before its plan as one failure of the group', () => {
    expect(parseTap('1..0 # no tests\n', 'g')).toEqual([]);
    const cut = 'g::::(stream ended without a plan)';
    expect(idsAndStatuses(parseTap('TAP version 13\n', 'g'))).toEqual([[cut, 'failed']]);
    expect(idsAndStatuses(parseTap('TAP version 13\nok 1 - a\n', 'g'))).toEqual([
      ['g::::a', 'passed'],
      [cut, 'failed'],
    ]);
    // A plan at the start (as mocha's TAP reporter writes it) is a plan.
    expect(idsAndStatuses(parseTap('1..2\nok 1 - a\n', 'g'))).toEqual([['g::::a', 'passed']]);
  });

  it('rejects text that is not TAP, and empty files', () => {
    expect(() => parseTap('Segmentation fault (core dumped)\n', 'g')).toThrow(
      'not a TAP stream: no version line, plan or test points found',
    );
    expect(() => parseTap('', 'g')).toThrow(ResultParseError);
  });
});
