/**
 * Reads the files of a zip archive in memory: what an Actions artifact download gives, with
 * fflate (a maintained zip library) rather than a reader of our own. The sizes the archive
 * declares are checked against a cap before anything is inflated, and fflate inflates each entry
 * into a buffer of its declared size, so an archive that lies about its sizes cannot make the
 * App allocate more than the cap.
 */
import { unzipSync } from 'fflate';

/** File name → contents (folders skipped). Throws with a reason on anything it cannot read. */
export function unzip(buf: Buffer, maxBytes = 64 * 1024 * 1024): Map<string, Buffer> {
  let total = 0;
  let entries: Record<string, Uint8Array>;
  try {
    entries = unzipSync(new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength), {
      filter: (file) => {
        if (file.name.endsWith('/')) return false;
        total += file.originalSize;
        if (total > maxBytes) throw new RangeError(`more than ${maxBytes} bytes uncompressed`);
        return true;
      },
    });
  } catch (e) {
    if (e instanceof RangeError) throw e;
    throw new Error(`not a readable zip archive (${e instanceof Error ? e.message : String(e)})`);
  }
  return new Map(Object.entries(entries).map(([name, data]) => [name, Buffer.from(data)]));
}
