/**
 * The wrapper a test step runs in when later groups follow it: one `docker exec` that keeps what
 * the step leaves running from living on into the next group's hidden files, instead of three
 * (list the pids, run the step, kill what is new).
 *
 * It is POSIX sh passed as `sh -c` text, never a file in the container the PR could replace.
 * It prints the pids alive before the step as its first stdout line, written before the step
 * starts (so the step cannot forge it), runs the step as its child, then kills every process
 * not in that list, pass after pass until none is left, and exits with the step's code.
 *
 * The step runs as root beside it and may kill the wrapper itself. The engine reports a signal
 * death as 128 + the signal, and the wrapper only ever exits by its own `exit`, so an exit code
 * of 128 or more (or none) says the kill pass may not have run: the caller then kills what is
 * not in the first line from a separate exec, as before. A step exiting that way on its own
 * (killed by the OOM killer, a crash) costs that exec too.
 */
import { Writable } from 'node:stream';
import type { OutputTail } from '../results/output-tail.ts';

/**
 * `$1` is the step's command. Every command in the loops is a shell builtin: no fork to race.
 * The kill passes go on until one finds nothing alive (zombies are dead), bounded: a process in
 * uninterruptible sleep may take a while to die (with SIGKILL pending it runs no more code). A
 * process's state follows the last ") " of its stat line: the command name before may hold anything.
 */
const SCRIPT = `keep=" 1 $$ "
for d in /proc/[0-9]*; do keep="$keep\${d#/proc/} "; done
echo "$keep"
sh -c "$1"
code=$?
n=0
while [ "$n" -lt 50 ]; do
  n=$((n + 1))
  left=
  for d in /proc/[0-9]*; do
    p=\${d#/proc/}
    case "$keep" in *" $p "*) continue ;; esac
    { read -r st < "$d/stat"; } 2>/dev/null || continue
    case "\${st##*) }" in Z* | X*) continue ;; esac
    kill -9 "$p" 2>/dev/null
    left=1
  done
  [ -n "$left" ] || break
done
exit "$code"`;

/** The exec's command line for `command` run inside the wrapper. */
export function wrappedStep(command: string): string[] {
  return ['sh', '-c', SCRIPT, 'tandem-step', command];
}

/** Did the wrapper end by its own `exit`, i.e. after its kill pass? */
export function wrapperCompleted(exitCode: number | null): boolean {
  return exitCode !== null && exitCode >= 0 && exitCode < 128;
}

/** The pid list is at most a few KiB (one entry per process, under the pids limit). */
const MAX_FIRST_LINE = 64 * 1024;

/**
 * The wrapper's stdout: its first line (the pids alive before the step) is kept apart; the rest,
 * the step's own output, goes to the tail.
 */
export class WrapperStdout {
  private head = '';
  private done = false;
  /** The pids alive before the step, space-separated; undefined until the line is complete. */
  keep: string | undefined;

  constructor(private readonly tail: OutputTail) {}

  writable(): Writable {
    return new Writable({
      write: (chunk: Buffer, _enc, cb) => {
        this.push(chunk);
        cb();
      },
    });
  }

  private push(chunk: Buffer): void {
    if (this.done) {
      this.tail.push(chunk);
      return;
    }
    const text = chunk.toString('latin1');
    const nl = text.indexOf('\n');
    if (nl < 0) {
      this.head += text;
      // Not a pid list: give up on it (the caller then kills everything but PID 1).
      if (this.head.length > MAX_FIRST_LINE) this.done = true;
      return;
    }
    this.done = true;
    const line = (this.head + text.slice(0, nl)).trim();
    if (/^[\d ]+$/.test(line)) this.keep = line.split(/\s+/).join(' ');
    this.tail.push(chunk.subarray(nl + 1));
  }
}
