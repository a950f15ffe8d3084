import { describe, expect, it } from 'vitest';
import { parseCommands, parseLinks } from '../../src/core/link-parser.ts';
import { MAX_MARKDOWN_CHARS } from '../../src/core/markdown-prose.ts';
import { pullKey } from '../../src/core/pull-ref.ts';

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

  it('creates no link from code, HTML comments or raw HTML', () => {
    const body = [
      '<!-- PR template: write one line per linked PR, like',
      'Depends-On: acme/template#1',
      '-->',
      '',
      '    Depends-On: acme/indented#2',
      '',
      '````md',
      '```',
      'Depends-On: acme/nested#3',
      '```',
      'Depends-On: acme/still-fenced#4',
      '````',
      '',
      'Depends-On: `acme/inline#5` acme/real#6',
      'Text <!-- Depends-On: acme/inline-comment#7 --> more',
      '',
      '<details>',
      'Depends-On: acme/html#8',
      '</details>',
    ].join('\n');
    expect(parseLinks('', body, self).map(pullKey)).toEqual(['acme/real#6']);
  });

  it('reads links in lists, quotes, emphasis and Markdown links', () => {
    const body = [
      '> Depends-On: acme/quoted#1',
      '',
      '* Depends-On: **acme/strong#2**',
      '',
      'Depends-On: [the schema change](https://github.com/acme/schema/pull/3)',
      'Depends-On: <https://github.com/acme/auto/pull/4>',
    ].join('\n');
    expect(parseLinks('', body, self).map(pullKey)).toEqual([
      'acme/quoted#1',
      'acme/strong#2',
      'acme/schema#3',
      'acme/auto#4',
    ]);
  });

  it('ignores inline code in the title', () => {
    expect(parseLinks('`Depends-On: acme/x#1`', null, self)).toEqual([]);
  });
});

describe('adversarial bodies', () => {
  const near = (unit: string) => unit.repeat(Math.ceil(70_000 / unit.length));

  it.each([
    ['near-miss keys', 'Depends-On acme/web#1 depends-on; '],
    ['refs without a key', 'acme/web#1 '],
    ['open comments', '<!-- Depends-On: acme/web#1 '],
    ['open backticks', 'x`Depends-On: acme/web#1 '],
    ['open brackets', '[Depends-On: acme/web#1]('],
    ['emphasis runs', '*_Depends-On:_* '],
    ['spaces then a word', `Depends-On:${' '.repeat(1000)}x`],
  ])('%s: no link and no blow-up', (_name, unit) => {
    expect(parseLinks('', near(unit), self)).toEqual([]);
  });

  it('shorter fences inside one long open fence: no link', () => {
    expect(parseLinks('', `\`\`\`\`\n${near('```\nDepends-On: acme/web#1\n')}`, self)).toEqual([]);
  });

  it('many valid lines yield each reference once', () => {
    const body = near('Depends-On: acme/web#1, acme/ops#2\n');
    expect(body.length).toBeGreaterThan(MAX_MARKDOWN_CHARS);
    expect(parseLinks('', body, self).map(pullKey)).toEqual(['acme/web#1', 'acme/ops#2']);
  });

  it('reads only the first 64 KiB of a body', () => {
    const body = `${'x'.repeat(MAX_MARKDOWN_CHARS)}\n\nDepends-On: acme/late#1`;
    expect(parseLinks('', body, self)).toEqual([]);
    expect(parseLinks('', `Depends-On: acme/early#1\n\n${body}`, self).map(pullKey)).toEqual([
      'acme/early#1',
    ]);
  });
});

describe('parseCommands', () => {
  it('parses `/tandem run --fresh` as a run that must not reuse a published result', () => {
    expect(parseCommands('/tandem run --fresh\n/tandem recheck --FRESH\n/tandem run', self)).toEqual([
      { kind: 'run', fresh: true },
      { kind: 'run', fresh: true },
      { kind: 'run' },
    ]);
  });

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

  it('parses `/tandem merge` alone on its line, in any case', () => {
    expect(parseCommands('Looks good.\n\n/tandem merge', self)).toEqual([{ kind: 'merge' }]);
    expect(parseCommands('/Tandem MERGE', self)).toEqual([{ kind: 'merge' }]);
    // Trailing words make it something else: nothing is merged on a guess.
    expect(parseCommands('/tandem merge acme/api#1\n/tandem merge now', self)).toEqual([]);
  });

  it('parses `/tandem dequeue` alone on its line (issue 28)', () => {
    expect(parseCommands('/tandem dequeue', self)).toEqual([{ kind: 'dequeue' }]);
    expect(parseCommands('Not yet.\n/Tandem DEQUEUE', self)).toEqual([{ kind: 'dequeue' }]);
    expect(parseCommands('/tandem dequeue please', self)).toEqual([]);
  });

  it('never reads `/tandem merge` from code, quotes or comments', () => {
    const body = [
      '```',
      '/tandem merge',
      '```',
      '',
      '~~~md',
      '> /tandem merge',
      '~~~',
      '',
      '    /tandem merge',
      '',
      '`/tandem merge`',
      '',
      '> /tandem merge',
      '',
      '<!-- /tandem merge -->',
      '',
      '- ```',
      '  /tandem merge',
      '  ```',
    ].join('\n');
    expect(parseCommands(body, self)).toEqual([]);
  });

  it('ignores commands in HTML comments, indented code and inline code', () => {
    expect(parseCommands('<!-- /tandem run -->\n\n    /tandem run\n\n`/tandem run`', self)).toEqual([]);
  });
});
