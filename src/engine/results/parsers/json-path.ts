/**
 * Where in a JSON text parsing stopped, as a field path (`testResults[3].assertionResults[0]`),
 * so a result file that is not valid JSON is reported at the place a person can look, not as a
 * byte offset into a 5 MB line.
 */
import { errorText } from '../../../core/error-text.ts';

/**
 * The offset where `text` stops being JSON (V8's messages do not always say). A small scanner
 * that only checks the grammar: called once, after JSON.parse has already failed.
 */
export function errorOffset(text: string): number {
  let i = 0;
  const ws = () => {
    while (i < text.length && ' \t\n\r'.includes(text[i]!)) i++;
  };
  const fail = (): never => {
    throw i;
  };
  const literal = (word: string) => {
    if (text.startsWith(word, i)) i += word.length;
    else fail();
  };
  const string = () => {
    if (text[i] !== '"') fail();
    i++;
    while (i < text.length && text[i] !== '"') {
      if (text.charCodeAt(i) < 0x20) fail();
      i += text[i] === '\\' ? 2 : 1;
    }
    if (i >= text.length) fail();
    i++;
  };
  const value = (): void => {
    ws();
    const c = text[i];
    if (c === '{') {
      i++;
      ws();
      if (text[i] === '}') {
        i++;
        return;
      }
      for (;;) {
        ws();
        string();
        ws();
        if (text[i] !== ':') fail();
        i++;
        value();
        ws();
        if (text[i] === ',') i++;
        else if (text[i] === '}') {
          i++;
          return;
        } else fail();
      }
    }
    if (c === '[') {
      i++;
      ws();
      if (text[i] === ']') {
        i++;
        return;
      }
      for (;;) {
        value();
        ws();
        if (text[i] === ',') i++;
        else if (text[i] === ']') {
          i++;
          return;
        } else fail();
      }
    }
    const word = c === 't' ? 'true' : c === 'f' ? 'false' : c === 'n' ? 'null' : undefined;
    if (c === '"') string();
    else if (word) literal(word);
    else number();
  };
  const number = () => {
    const m = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i, i + 64));
    if (!m) fail();
    i += m![0].length;
  };
  try {
    value();
    ws();
    return i;
  } catch (at) {
    return typeof at === 'number' ? at : i;
  }
}

/** The path of the value being read at `offset` (empty string at the top level). */
export function jsonPathAt(text: string, offset: number): string {
  type Frame = { kind: 'object'; key?: string; expectKey: boolean } | { kind: 'array'; index: number };
  const stack: Frame[] = [];
  let i = 0;
  const end = Math.min(offset, text.length);
  while (i < end) {
    const c = text[i]!;
    const top = stack[stack.length - 1];
    if (c === '"') {
      let j = i + 1;
      while (j < text.length && text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      if (top?.kind === 'object' && top.expectKey) {
        try {
          top.key = JSON.parse(text.slice(i, j + 1)) as string;
        } catch {
          top.key = text.slice(i + 1, j);
        }
        top.expectKey = false;
      }
      i = j + 1;
      continue;
    }
    if (c === '{') stack.push({ kind: 'object', expectKey: true });
    else if (c === '[') stack.push({ kind: 'array', index: 0 });
    else if (c === '}' || c === ']') stack.pop();
    else if (c === ',' && top) {
      if (top.kind === 'array') top.index++;
      else {
        top.expectKey = true;
        delete top.key;
      }
    }
    i++;
  }
  let out = '';
  for (const f of stack) {
    if (f.kind === 'array') out += `[${f.index}]`;
    else if (f.key !== undefined)
      out += /^[A-Za-z_$][\w$]*$/.test(f.key) ? `${out ? '.' : ''}${f.key}` : `[${JSON.stringify(f.key)}]`;
  }
  return out;
}

/** `JSON.parse`, or a message (` at <path>: …` or `: …`) naming where the text stopped being JSON. */
export function parseJsonAt(text: string): { ok: true; value: unknown } | { ok: false; message: string } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (err) {
    const where = jsonPathAt(text, errorOffset(text));
    const message = errorText(err);
    return { ok: false, message: where ? ` at ${where}: ${message}` : `: ${message}` };
  }
}
