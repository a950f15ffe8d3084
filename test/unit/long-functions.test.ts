/**
 * scripts/long-functions.ts measures functions by their lines and names them as a reader would
 * look for them; `bench run` and `mine git` stay split into phases under the limit.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { longFunctionsIn } from '../../scripts/long-functions.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const body = (n: number) => Array.from({ length: n }, (_, i) => `  const v${i} = ${i};`).join('\n');

describe('longFunctionsIn', () => {
  it('lists functions over the limit by name and first line, counting first to last line', () => {
    const text = [
      `export function declared() {\n${body(4)}\n}`, // 6 lines
      `const assigned = () => {\n${body(1)}\n};`, // 3 lines
      `class C {\n  method() {\n${body(5)}\n  }\n}`, // method: 7 lines
      `run(function () {\n${body(6)}\n});`, // 8 lines
    ].join('\n');
    expect(longFunctionsIn(text, 'x.ts', 5)).toEqual([
      { name: 'declared', line: 1, lines: 6 },
      { name: 'method', line: 11, lines: 7 },
      { name: '(anonymous)', line: 19, lines: 8 },
    ]);
    expect(longFunctionsIn(text, 'x.ts', 2).map((f) => f.name)).toContain('assigned');
  });
});

describe('the phases of bench run and mine git', () => {
  it.each(['src/bench/run-bench.ts', 'src/mine/mine-git.ts'])('%s has no function over 100 lines', (file) => {
    expect(longFunctionsIn(readFileSync(path.join(ROOT, file), 'utf8'), file, 100)).toEqual([]);
  });
});
