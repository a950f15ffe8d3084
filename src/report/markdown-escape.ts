/**
 * Escaping for Markdown built from strings repositories and tests control (names, messages,
 * refs): nothing they hold may inject Markdown, HTML or @-mentions.
 */
const fold = (s: unknown): string =>
  String(s ?? '')
    .replace(/\s+/g, ' ')
    .trim();

export const capText = (s: string, max: number): string => (s.length > max ? `${s.slice(0, max - 1)}…` : s);

/** Plain text: backslash-escape Markdown punctuation and break @-mentions. */
export function mdText(value: unknown): string {
  return fold(value)
    .replace(/[\\`*_[\]<>|~]/g, (c) => `\\${c}`)
    .replace(/@(?=\w)/g, '@\u200b');
}

/** An inline code span that survives backticks in its content. */
export function mdCode(value: unknown, max = 300): string {
  const s = capText(fold(value), max);
  const longest = Math.max(0, ...[...s.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  const pad = s.startsWith('`') || s.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${s}${pad}${fence}`;
}

/**
 * Lines shown verbatim in a fenced block (failure messages): the fence is longer than any
 * backtick run inside, so the text cannot close it; `indent` nests the block in a list item.
 */
export function mdFence(lines: readonly string[], indent = ''): string {
  const body = lines.map((l) => l.replace(/[\u0000-\u0008\u000b-\u001f]/g, ''));
  const longest = Math.max(2, ...body.flatMap((l) => [...l.matchAll(/`+/g)].map((m) => m[0].length)));
  const fence = '`'.repeat(longest + 1);
  return [fence, ...body, fence].map((l) => `${indent}${l}`).join('\n');
}
