/**
 * errorText: whatever was thrown, one readable line — never `undefined`, `[object Object]` or a
 * blank. The values are what real code throws (fs, JSON, YAML, Node's connection errors).
 */
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import {
  errorCode,
  errorCodeOrText,
  errorHeadline,
  errorText,
  MAX_ERROR_TEXT,
} from '../../src/core/error-text.ts';
import { InfraError, InputError, infraInfo } from '../../src/core/errors.ts';

function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (e) {
    return e;
  }
  throw new Error('expected a throw');
}

describe('errorText', () => {
  it("gives an error's message, ours and the platform's alike", () => {
    expect(errorText(new InputError('case.yml: field "targets" is required'))).toBe(
      'case.yml: field "targets" is required',
    );
    expect(errorText(new InfraError('engine', 'Docker is not reachable'))).toBe('Docker is not reachable');
    expect(errorText(thrown(() => JSON.parse('{"a": ')))).toMatch(/JSON/);
  });

  it('folds a multi-line message (a YAML code frame) to one line, dropping the caret markers', () => {
    const err = thrown(() => parseYaml('a: b: c'));
    expect((err as Error).message).toContain('\n');
    const text = errorText(err);
    expect(text).not.toContain('\n');
    expect(text).toMatch(/at line 1, column \d+: \| a: b: c$/);
  });

  it('quotes thrown strings, plain objects with a message, and any other value', () => {
    expect(errorText('boom')).toBe('boom');
    expect(errorText({ message: 'from a plain object' })).toBe('from a plain object');
    expect(errorText({ status: 500 })).toBe('{"status":500}');
    expect(errorText(undefined)).toBe('undefined');
    expect(errorText(null)).toBe('null');
    expect(errorText(42)).toBe('42');
    expect(errorText(Symbol('s'))).toBe('Symbol(s)');
    const circular: Record<string, unknown> = {};
    circular.self = circular;
    expect(errorText(circular)).toBe('[object Object]');
  });

  it("reads an empty-message AggregateError through its inner errors (Node's dual-stack connect failure)", () => {
    const inner = (address: string) =>
      Object.assign(new Error(`connect ECONNREFUSED ${address}`), { code: 'ECONNREFUSED' });
    const err = Object.assign(new AggregateError([inner('::1:9'), inner('127.0.0.1:9')], ''), {
      code: 'ECONNREFUSED',
    });
    expect(err.message).toBe('');
    expect(errorText(err)).toBe('connect ECONNREFUSED ::1:9; connect ECONNREFUSED 127.0.0.1:9');
    expect(errorText(new AggregateError([], ''))).toBe('AggregateError');
    expect(errorText(Object.assign(new Error(''), { code: 'EPIPE' }))).toBe('EPIPE');
  });

  it('adds the cause when it says more than the message', () => {
    const err = new TypeError('fetch failed', { cause: new Error('getaddrinfo ENOTFOUND ghe.example') });
    expect(errorText(err)).toBe('fetch failed (cause: getaddrinfo ENOTFOUND ghe.example)');
    const repeated = new Error('could not clone: timeout', { cause: 'timeout' });
    expect(errorText(repeated)).toBe('could not clone: timeout');
  });

  it('never returns a blank and caps a huge message', () => {
    expect(errorText('')).toBe('unknown error');
    expect(errorText(new Error('\n  \n'))).toBe('Error');
    const long = errorText('x'.repeat(MAX_ERROR_TEXT * 3));
    expect(long).toHaveLength(MAX_ERROR_TEXT);
    expect(long.endsWith('…')).toBe(true);
  });
});

describe('errorHeadline', () => {
  it("keeps only a message's first line: the position of a YAML error, not its code frame", () => {
    const text = errorHeadline(thrown(() => parseYaml('secret: value: x')));
    expect(text).toMatch(/at line 1, column \d+:$/);
    expect(text).not.toContain('secret');
    expect(errorHeadline(new Error('\n\n  second\nthird'))).toBe('second');
    expect(errorHeadline(undefined)).toBe('undefined');
  });
});

describe('errorCodeOrText', () => {
  it("gives a file error's system code, and the text of anything without one", async () => {
    const err = await readFile('/nonexistent/tandem-error-text').catch((e: unknown) => e);
    expect(errorCode(err)).toBe('ENOENT');
    expect(errorCodeOrText(err)).toBe('ENOENT');
    expect(errorCodeOrText(new Error('disk on fire'))).toBe('disk on fire');
    expect(errorCode({ code: 404 })).toBeUndefined();
  });
});

describe("infraInfo (a report's infrastructure error) of any thrown value", () => {
  it('says what failed, whatever was thrown', () => {
    const refused = new AggregateError([new Error('connect ECONNREFUSED 127.0.0.1:2375')], '');
    expect(infraInfo(refused, 'acme/api')).toEqual({
      kind: 'engine',
      message: 'connect ECONNREFUSED 127.0.0.1:2375',
      target: 'acme/api',
    });
    expect(infraInfo({ reason: 'gone' }).message).toBe('{"reason":"gone"}');
    expect(infraInfo(undefined).message).toBe('undefined');
  });
});
