import { describe, expect, it } from 'vitest';
import { OutputTail } from '../../src/engine/results/output-tail.ts';
import { WrapperStdout, wrappedStep, wrapperCompleted } from '../../src/engine/sandbox/step-wrapper.ts';

function feed(chunks: string[]): { stdout: WrapperStdout; tail: OutputTail } {
  const tail = new OutputTail(1024);
  const stdout = new WrapperStdout(tail);
  const w = stdout.writable();
  for (const c of chunks) w.write(Buffer.from(c));
  return { stdout, tail };
}

describe('step wrapper', () => {
  it('passes the step as an argument to an inline script, never as a file', () => {
    const cmd = wrappedStep('npm test; echo "$1"');
    expect(cmd.slice(0, 2)).toEqual(['sh', '-c']);
    expect(cmd.at(-1)).toBe('npm test; echo "$1"');
    expect(cmd[2]).toContain('sh -c "$1"');
  });

  it('keeps the first stdout line (the pids) apart from the step output, across chunks', () => {
    const { stdout, tail } = feed([' 1 7 1', '4 22 \nhel', 'lo\n']);
    expect(stdout.keep).toBe('1 7 14 22');
    expect(tail.toString()).toBe('hello\n');
  });

  it('refuses a first line that is not a pid list', () => {
    const { stdout, tail } = feed(['1 2; rm -rf /\nrest']);
    expect(stdout.keep).toBeUndefined();
    expect(tail.toString()).toBe('rest');
  });

  it('has no pid list before the line is complete', () => {
    expect(feed([' 1 7']).stdout.keep).toBeUndefined();
  });

  it('trusts only an exit by the script itself (a signal death is 128 + the signal)', () => {
    expect(wrapperCompleted(0)).toBe(true);
    expect(wrapperCompleted(127)).toBe(true);
    expect(wrapperCompleted(137)).toBe(false);
    expect(wrapperCompleted(null)).toBe(false);
  });
});
