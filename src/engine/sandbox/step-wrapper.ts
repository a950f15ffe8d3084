/**
 * The leftover kill of the Docker sandbox: after a test step that later groups follow, every
 * process the step left running dies before the next group's hidden files arrive. It trusts
 * nothing a step could write: the list of processes to spare (PID 1 and what setup left
 * running — suites start services there) is taken by a root exec once setup has ended and is
 * kept by the host; the kill is another root exec after the step. Steps run as an unprivileged
 * uid (step-user.ts), so they can neither kill nor trace these execs, and both are inline
 * `/bin/sh -c` text from the image under a read-only root file system, never a file PR code
 * could replace.
 */

/** The shell every exec starts by absolute path (the image's, under the read-only root). */
export const SHELL = '/bin/sh';

/** Prints the pids alive now (itself left out), space-separated: what the leftover kill spares. */
export const LIST_PIDS: string[] = [
  SHELL,
  '-c',
  `for d in /proc/[0-9]*; do p=\${d#/proc/}; [ "$p" = "$$" ] || printf "%s " "$p"; done`,
];

/** The pids LIST_PIDS printed; undefined unless the output is nothing but pids. */
export function parsePids(text: string): number[] | undefined {
  const line = text.trim();
  if (!/^[\d ]*$/.test(line)) return undefined;
  return line === '' ? [] : line.split(/\s+/).map(Number);
}

/**
 * Kills every process but PID 1, itself and `keep`, pass after pass until one finds nothing
 * alive (zombies are dead), bounded: a process in uninterruptible sleep may take a while to die.
 * Every command in the loops is a shell builtin: no fork to race. A process's state follows the
 * last ") " of its stat line: the command name before may hold anything.
 */
export function leftoverKill(keep: readonly number[]): string[] {
  const script = `keep=" 1 $$ ${keep.join(' ')} "
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
true`;
  return [SHELL, '-c', script];
}
