/**
 * The prose lines of a Markdown text, as GitHub would render them: what sits in code (fenced,
 * indented or inline), in HTML comments or other raw HTML is not prose. PR templates keep their
 * `Depends-On:` examples in HTML comments and code blocks; those must not act.
 *
 * A real CommonMark lexer (markdown-it's token stream) decides, not a hand-written fence scan:
 * nested fences, indented code and multi-line comments are its job. Pure.
 */
import MarkdownIt, { type Token } from 'markdown-it';

/** Longest text read; a PR body is at most 65,536 characters on GitHub anyway. */
export const MAX_MARKDOWN_CHARS = 64 * 1024;

// `html: true` so comments and raw HTML are recognised as HTML (and skipped), not read as text.
const md = new MarkdownIt('commonmark', { html: true });

/** The text of one inline token, code and HTML left out, links read by their target. */
function inlineText(children: readonly Token[]): string {
  let out = '';
  let inLink = false;
  for (const c of children) {
    if (c.type === 'link_close') inLink = false;
    if (inLink) continue;
    switch (c.type) {
      case 'text':
      case 'text_special':
        out += c.content;
        break;
      case 'softbreak':
      case 'hardbreak':
        out += '\n';
        break;
      case 'link_open':
        // `[the API change](https://…/pull/12)`: the target is the reference, not the words.
        out += ` ${c.attrGet('href') ?? ''} `;
        inLink = true;
        break;
      case 'code_inline':
      case 'html_inline':
      case 'image':
        out += ' ';
        break;
      default:
        break;
    }
  }
  return out;
}

export interface ProseOptions {
  /** Leave out block quotes too: a quoted `/tandem run` is someone else's words, not a command. */
  skipQuotes?: boolean;
}

/** Prose lines of `markdown` (capped at MAX_MARKDOWN_CHARS), in order. */
export function proseLines(markdown: string, options: ProseOptions = {}): string[] {
  const text = markdown.length > MAX_MARKDOWN_CHARS ? markdown.slice(0, MAX_MARKDOWN_CHARS) : markdown;
  const lines: string[] = [];
  let quoteDepth = 0;
  for (const token of md.parse(text, {})) {
    if (token.type === 'blockquote_open') quoteDepth += 1;
    else if (token.type === 'blockquote_close') quoteDepth -= 1;
    // Only inline tokens hold prose; code_block, fence and html_block carry none.
    else if (token.type === 'inline' && !(options.skipQuotes && quoteDepth > 0))
      lines.push(...inlineText(token.children ?? []).split('\n'));
  }
  return lines;
}

/** A one-line text (a PR title) with inline code and HTML left out. */
export function proseOfLine(text: string): string {
  const line = text.length > MAX_MARKDOWN_CHARS ? text.slice(0, MAX_MARKDOWN_CHARS) : text;
  return md
    .parseInline(line, {})
    .map((t) => inlineText(t.children ?? []))
    .join(' ');
}
