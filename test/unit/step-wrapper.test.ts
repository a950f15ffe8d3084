import { describe, expect, it } from 'vitest';
import { LIST_PIDS, leftoverKill, parsePids, SHELL } from '../../src/engine/sandbox/step-wrapper.ts';

describe('leftover kill', () => {
  it('runs inline scripts under the image shell by absolute path, never a file', () => {
    expect(SHELL).toBe('/bin/sh');
    expect(LIST_PIDS.slice(0, 2)).toEqual(['/bin/sh', '-c']);
    expect(leftoverKill([7, 12]).slice(0, 2)).toEqual(['/bin/sh', '-c']);
  });

  it('spares PID 1, itself and the listed pids only', () => {
    expect(leftoverKill([7, 12])[2]).toContain('keep=" 1 $$ 7 12 "');
    expect(leftoverKill([])[2]).toContain('keep=" 1 $$  "');
  });

  it('reads a pid list, and refuses anything else', () => {
    expect(parsePids(' 1 7 14 22 ')).toEqual([1, 7, 14, 22]);
    expect(parsePids('')).toEqual([]);
    expect(parsePids('1 2; rm -rf /')).toBeUndefined();
  });
});
