import { describe, expect, it } from 'vitest';
import { MAX_MARKDOWN_CHARS, proseLines, proseOfLine } from '../../src/core/markdown-prose.ts';

describe('proseLines', () => {
  it('keeps prose lines in order, from paragraphs, lists, headings and quotes', () => {
    const md = ['# Title', '', 'one', 'two', '', '- item', '', '> quoted'].join('\n');
    expect(proseLines(md)).toEqual(['Title', 'one', 'two', 'item', 'quoted']);
  });

  it('leaves out fenced, indented and inline code, HTML comments and raw HTML', () => {
    const md = [
      'a `code` b',
      '',
      '```',
      'fenced',
      '```',
      '',
      '    indented',
      '',
      '<!-- comment',
      'still comment -->',
      '',
      '<div>',
      'html',
      '</div>',
      '',
      'c <span>shown</span> d',
    ].join('\n');
    const text = proseLines(md).join('\n');
    for (const hidden of ['code', 'fenced', 'indented', 'comment', 'html', '<span>'])
      expect(text).not.toContain(hidden);
    expect(text).toContain('a   b');
    expect(text).toContain('c  shown  d');
  });

  it('reads a link by its target and skips quotes on request', () => {
    expect(proseLines('see [this](https://x.test/a/b/pull/1)')).toEqual(['see  https://x.test/a/b/pull/1 ']);
    expect(proseLines('> quoted\n\nplain', { skipQuotes: true })).toEqual(['plain']);
  });

  it('reads at most MAX_MARKDOWN_CHARS', () => {
    const md = `${'a'.repeat(MAX_MARKDOWN_CHARS)}\n\nlate`;
    expect(proseLines(md).join('')).not.toContain('late');
  });
});

describe('proseOfLine', () => {
  it('drops inline code and HTML from a title', () => {
    expect(proseOfLine('fix `Depends-On: x` <b>now</b>')).toBe('fix    now ');
  });
});
