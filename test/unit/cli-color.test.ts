import { describe, expect, it } from 'vitest';
import { type ColorTarget, colorEnabled } from '../../src/cli/color.ts';

const terminal = (colours = true): ColorTarget => ({ isTTY: true, hasColors: () => colours });
const pipe: ColorTarget = { isTTY: false };

describe('colorEnabled', () => {
  const cases: Array<[string, ColorTarget, NodeJS.ProcessEnv, boolean]> = [
    ['a terminal with colours', terminal(), {}, true],
    ['a terminal that has none (TERM=dumb)', terminal(false), {}, false],
    ['a pipe', pipe, {}, false],
    ['NO_COLOR on a terminal', terminal(), { NO_COLOR: '1' }, false],
    ['an empty NO_COLOR is unset (no-color.org)', terminal(), { NO_COLOR: '' }, true],
    ['FORCE_COLOR on a pipe', pipe, { FORCE_COLOR: '1' }, true],
    ['an empty FORCE_COLOR forces too (as in Node)', pipe, { FORCE_COLOR: '' }, true],
    ['FORCE_COLOR over NO_COLOR', pipe, { FORCE_COLOR: '1', NO_COLOR: '1' }, true],
    ['FORCE_COLOR=0 on a terminal', terminal(), { FORCE_COLOR: '0' }, false],
    ['FORCE_COLOR=false on a terminal', terminal(), { FORCE_COLOR: 'false' }, false],
  ];
  it.each(cases)('%s', (_name, stream, env, expected) => {
    expect(colorEnabled(stream, env)).toBe(expected);
  });

  it('hands the environment to the terminal check', () => {
    const seen: object[] = [];
    const env = { TERM: 'xterm' };
    const hasColors = (e?: object) => {
      seen.push(e!);
      return true;
    };
    colorEnabled({ isTTY: true, hasColors }, env);
    expect(seen).toEqual([env]);
  });
});
