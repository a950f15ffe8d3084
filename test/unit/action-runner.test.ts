/** The runner protocol: input names, output file records, command escaping, summary, setFailed. */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { escapeData, escapeProperty, formatCommand, getInput, Runner } from '../../src/action/runner.ts';
import { parseCommands, parseOutputFile } from '../e2e/action-harness.ts';
import { makeTempDir, removeTempDir } from '../helpers/git-fixtures.ts';

let dir: string;
beforeAll(async () => {
  dir = await makeTempDir('tandem-runner-');
});
afterAll(async () => {
  await removeTempDir(dir);
});
afterEach(() => {
  process.exitCode = 0;
});

describe('runner protocol', () => {
  it('reads INPUT_<NAME>: upper-cased, spaces to underscores, dashes kept, trimmed', () => {
    const env = { 'INPUT_PULL-REQUESTS': '  acme/api#1 \n', INPUT_MY_INPUT: 'x' };
    expect(getInput(env, 'pull-requests')).toBe('acme/api#1');
    expect(getInput(env, 'my input')).toBe('x');
    expect(getInput(env, 'absent')).toBe('');
  });

  it('escapes messages (%, CR, LF) and properties (also : and ,)', () => {
    expect(escapeData('50% done\r\nnext')).toBe('50%25 done%0D%0Anext');
    expect(escapeProperty('a: b, c%')).toBe('a%3A b%2C c%25');
    expect(formatCommand('error', { file: 'x,y.js', title: 'T: 1', line: undefined }, 'two\nlines')).toBe(
      '::error file=x%2Cy.js,title=T%3A 1::two%0Alines',
    );
    expect(formatCommand('add-mask', {}, 's3cret')).toBe('::add-mask::s3cret');
  });

  it('appends outputs as heredoc records and the summary as Markdown', () => {
    const output = path.join(dir, 'out');
    const summary = path.join(dir, 'summary');
    writeFileSync(output, '');
    writeFileSync(summary, '');
    const lines: string[] = [];
    const runner = new Runner({ GITHUB_OUTPUT: output, GITHUB_STEP_SUMMARY: summary }, (t) => lines.push(t));
    runner.setOutput('verdict', 'resolved');
    runner.setOutput('plan', '{"a":1}\nsecond line');
    runner.appendSummary('### one');
    runner.appendSummary('two\n');
    const text = readFileSync(output, 'utf8');
    expect(text).toMatch(/^verdict<<ghadelimiter_[0-9a-f-]{36}\nresolved\nghadelimiter_[0-9a-f-]{36}\n/);
    expect(parseOutputFile(text)).toEqual({ verdict: 'resolved', plan: '{"a":1}\nsecond line' });
    expect(readFileSync(summary, 'utf8')).toBe('### one\ntwo\n');
    expect(lines).toEqual([]);
  });

  it('setFailed writes an error command and a failing exit code', () => {
    const lines: string[] = [];
    const runner = new Runner({}, (t) => lines.push(t));
    runner.annotate('warning', 'careful', { title: 'W', file: 'a.js', line: 3 });
    runner.setFailed('it broke:\nbadly');
    expect(process.exitCode).toBe(1);
    expect(parseCommands(lines.join(''))).toEqual([
      { command: 'warning', properties: { title: 'W', file: 'a.js', line: '3' }, message: 'careful' },
      { command: 'error', properties: {}, message: 'it broke:\nbadly' },
    ]);
  });

  it('without a GITHUB_OUTPUT file falls back to the set-output command', () => {
    const lines: string[] = [];
    new Runner({}, (t) => lines.push(t)).setOutput('verdict', 'error');
    expect(lines.join('')).toBe('::set-output name=verdict::error\n');
  });
});
