/** Waiting for work a webhook answer needs, but no longer than GitHub waits for the answer. */

/** How long a webhook answer may wait for the org config's first load (GitHub allows 10 s). */
export const CONFIG_WAIT_MS = 3_000;

/** `task`, or nothing after `ms` (a rate limit being waited out must not hold a webhook). */
export function within(task: Promise<void>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const bound = new Promise<void>((ok) => {
    timer = setTimeout(ok, ms);
  });
  return Promise.race([task, bound]).finally(() => clearTimeout(timer));
}
