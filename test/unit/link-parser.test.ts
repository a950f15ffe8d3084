import { describe, expect, it } from 'vitest';
import {
  parseCommands,
  parseLinks,
  parsePullKey,
  parsePullRef,
  pullKey,
} from '../../src/core/link-parser.ts';

const self = { owner: 'acme', repo: 'api', number: 7 };

describe('parseLinks', () => {
  it('reads URL, owner/repo#N and #N forms, case-insensitively, several per PR', () => {
    const body = [
      'Adds the checkout field.',
      'Depends-On: https://github.com/acme/schema/pull/12',
      'depends-on: acme/web#3',
      'DEPENDS-ON: #9',
      '- Depends-On: acme/docs#1, acme/ops#2',
    ].join('\n');
    expect(parseLinks('Checkout', body, self).map(pullKey)).toEqual([
      'acme/schema#12',
      'acme/web#3',
      'acme/api#9',
      'acme/docs#1',
      'acme/ops#2',
    ]);
  });

  it('reads the title and ignores lines inside code fences', () => {
    const body = [
      '```',
      'Depends-On: acme/web#3',
      '```',
      '~~~md',
      'Depends-On: acme/x#1',
      '~~~',
      'Depends-On: acme/y#2',
    ].join('\n');
    expect(parseLinks('Feature (Depends-On: acme/schema#1)', body, self).map(pullKey)).toEqual(['acme/y#2']);
    expect(parseLinks('Depends-On: acme/schema#1', null, self).map(pullKey)).toEqual(['acme/schema#1']);
  });

  it('drops self-references, duplicates and words that are not references', () => {
    const body = 'Depends-On: #7\nDepends-On: acme/web#3\nDepends-On: ACME/WEB#3\nDepends-On: soon, maybe';
    expect(parseLinks('', body, self).map(pullKey)).toEqual(['acme/web#3']);
  });

  it('handles enterprise hosts and URLs with suffixes', () => {
    expect(parsePullRef('https://ghe.acme.io/acme/schema/pull/4/files', self)).toEqual({
      owner: 'acme',
      repo: 'schema',
      number: 4,
    });
    expect(parsePullRef('<http://127.0.0.1:9/acme/web/pull/5>', self)).toEqual({
      owner: 'acme',
      repo: 'web',
      number: 5,
    });
    expect(parsePullRef('https://github.com/acme/web/issues/5', self)).toBeUndefined();
  });
});

describe('parseCommands', () => {
  it('parses run, matrix and link commands line by line', () => {
    const body =
      '/tandem run\nplease\n/tandem matrix full\n/tandem link acme/web#3 #4\n/tandem unlink acme/schema#1';
    expect(parseCommands(body, self)).toEqual([
      { kind: 'run' },
      { kind: 'matrix', mode: 'full' },
      { kind: 'link', ref: { owner: 'acme', repo: 'web', number: 3 } },
      { kind: 'link', ref: { owner: 'acme', repo: 'api', number: 4 } },
      { kind: 'unlink', ref: { owner: 'acme', repo: 'schema', number: 1 } },
    ]);
  });

  it('ignores quoted examples, unknown verbs and commands inside fences', () => {
    expect(
      parseCommands('```\n/tandem run\n```\n> /tandem run\n/tandem dance\n/tandem matrix huge', self),
    ).toEqual([]);
  });
});

describe('pull keys', () => {
  it('round-trips and lowercases', () => {
    expect(pullKey({ owner: 'Acme', repo: 'API', number: 3 })).toBe('acme/api#3');
    expect(parsePullKey('acme/api#3')).toEqual({ owner: 'acme', repo: 'api', number: 3 });
  });
});
