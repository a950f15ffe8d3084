/** Memory sizes as suites write them: `512m`, `2g`, `1.5g`, `65536` (bytes). Pure. */

export const MEMORY_SIZE = /^(\d+(?:\.\d+)?)([kmg]?)$/i;

/** Docker refuses a container memory limit below 6 MiB: such a suite can never run. */
export const MIN_SANDBOX_MEMORY = 6 * 1024 ** 2;

/** `512m` → bytes; throws on text that is not a size (the suite schema checks the shape first). */
export function parseMemory(text: string): number {
  const m = MEMORY_SIZE.exec(text.trim());
  if (!m) throw new Error(`not a memory size: ${text}`);
  const unit = { '': 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3 }[m[2]!.toLowerCase() as '' | 'k' | 'm' | 'g'];
  return Math.round(Number(m[1]) * unit);
}
