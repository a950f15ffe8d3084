/** `512m`, `2g`, `1.5g`, `65536` (bytes) → bytes. The suite schema has already checked the shape. */
export function parseMemory(text: string): number {
  const m = /^(\d+(?:\.\d+)?)([kmg]?)$/i.exec(text.trim());
  if (!m) throw new Error(`not a memory size: ${text}`);
  const unit = { '': 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3 }[m[2]!.toLowerCase() as '' | 'k' | 'm' | 'g'];
  return Math.round(Number(m[1]) * unit);
}
