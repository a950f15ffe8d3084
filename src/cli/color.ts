/**
 * Whether to write ANSI colours to a stream. The usual conventions, in Node's own order:
 * FORCE_COLOR wins (`0`/`false` turn colour off, any other value on, even into a pipe or file),
 * then NO_COLOR (any non-empty value, no-color.org), then only a terminal that supports colours
 * (`hasColors` also honours TERM=dumb). A pipe or file gets plain text.
 */
export interface ColorTarget {
  isTTY?: boolean;
  hasColors?: (env?: object) => boolean;
}

export function colorEnabled(stream: ColorTarget, env: NodeJS.ProcessEnv = process.env): boolean {
  const force = env.FORCE_COLOR;
  if (force !== undefined) return force !== '0' && force !== 'false';
  if (env.NO_COLOR) return false;
  if (stream.isTTY !== true) return false;
  return stream.hasColors?.(env) ?? true;
}
