import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { countingBar, createProgress } from '../../src/cli/progress.ts';

/** A stderr stand-in that is not a TTY, collecting what is written. */
function pipe(): { stream: NodeJS.WriteStream; text: () => string } {
  const p = new PassThrough();
  const chunks: string[] = [];
  p.on('data', (c: Buffer) => chunks.push(c.toString()));
  return { stream: p as unknown as NodeJS.WriteStream, text: () => chunks.join('') };
}

describe('countingBar without a TTY', () => {
  it("writes one line per finished item in the caller's format, and notes as they are", () => {
    const out = pipe();
    const bar = countingBar(out.stream, { unit: 'predictions', line: (d, t, l) => `[${d}/${t}] ${l}` });
    bar.start(2);
    bar.tick('m1 i1: resolved');
    bar.note('retrying m1 i2');
    bar.tick('m1 i2: unresolved');
    bar.stop();
    expect(bar.active).toBe(false);
    expect(out.text()).toBe('[1/2] m1 i1: resolved\nretrying m1 i2\n[2/2] m1 i2: unresolved\n');
  });
});

describe('createProgress', () => {
  it('prints the plan and every configuration; quiet prints nothing', () => {
    const out = pipe();
    const p = createProgress(out.stream, false);
    p.onEvent({ type: 'plan', configurations: [{ id: 'base', applied: [] }] } as never);
    expect(out.text()).toMatch(/1 configuration/);
    const quiet = pipe();
    const q = createProgress(quiet.stream, true);
    q.onEvent({ type: 'plan', configurations: [{ id: 'base', applied: [] }] } as never);
    expect(quiet.text()).toBe('');
  });
});

/** A terminal stand-in: a TTY that records what is written, with the cursor calls cli-progress makes. */
function terminal(): { stream: NodeJS.WriteStream; text: () => string } {
  const out = pipe();
  Object.assign(out.stream, {
    isTTY: true,
    columns: 120,
    cursorTo: (_x: number, _y?: unknown, cb?: () => void) => {
      out.stream.write('\r');
      cb?.();
      return true;
    },
    clearLine: (_dir: number, cb?: () => void) => {
      cb?.();
      return true;
    },
    moveCursor: (_dx: number, _dy: number, cb?: () => void) => {
      cb?.();
      return true;
    },
  });
  return out;
}

describe('createProgress on a terminal', () => {
  it('keeps prepare steps and warnings in sight above the bar, which goes on below them', () => {
    const out = terminal();
    const p = createProgress(out.stream, false);
    p.onEvent({
      type: 'plan',
      configurations: [
        { id: 'base', applied: [] },
        { id: 'full', applied: ['acme/api'] },
      ],
      mode: 'full',
    } as never);
    p.onEvent({ type: 'prepare-done', repo: 'acme/api', key: 'k', reused: false, durationMs: 2100 } as never);
    p.onEvent({ type: 'log', level: 'warn', message: 'ignoring a corrupt result-cache entry' } as never);
    p.stop();
    const text = out.text();
    const prepared = text.indexOf('acme/api');
    const warned = text.indexOf('ignoring a corrupt result-cache entry');
    expect(prepared).toBeGreaterThan(-1);
    expect(warned).toBeGreaterThan(prepared);
    // The bar is drawn again after each line that stays.
    expect(text.slice(warned)).toMatch(/\n[^\n]*0\/2 configurations/);
  });
});
