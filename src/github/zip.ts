/**
 * Reads the files of a zip archive in memory: what an Actions artifact download gives. Stored
 * and deflated entries, sizes taken from the central directory (so entries written with a data
 * descriptor read fine), CRC-32 checked. No zip64 and no encryption: an artifact holding one JSON
 * report needs neither, and refusing them is clearer than misreading them.
 */
import { crc32, inflateRawSync } from 'node:zlib';

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;

/** File name → contents (folders skipped). Throws with a reason on anything it cannot read. */
export function unzip(buf: Buffer, maxBytes = 64 * 1024 * 1024): Map<string, Buffer> {
  // The end-of-central-directory record is last, followed only by an optional comment (≤ 65,535 bytes).
  let eocd = -1;
  for (let i = buf.length - 22; i >= Math.max(0, buf.length - 22 - 0xffff); i--) {
    if (buf.readUInt32LE(i) === EOCD) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw new Error('not a zip archive');
  const count = buf.readUInt16LE(eocd + 10);
  let p = buf.readUInt32LE(eocd + 16);
  if (count === 0xffff || p === 0xffffffff) throw new Error('zip64 archives are not supported');

  const files = new Map<string, Buffer>();
  let total = 0;
  for (let n = 0; n < count; n++) {
    if (p + 46 > buf.length || buf.readUInt32LE(p) !== CENTRAL) throw new Error('corrupt central directory');
    const flags = buf.readUInt16LE(p + 8);
    const method = buf.readUInt16LE(p + 10);
    const crc = buf.readUInt32LE(p + 16);
    const packed = buf.readUInt32LE(p + 20);
    const size = buf.readUInt32LE(p + 24);
    const nameLen = buf.readUInt16LE(p + 28);
    const local = buf.readUInt32LE(p + 42);
    const name = buf.toString('utf8', p + 46, p + 46 + nameLen);
    p += 46 + nameLen + buf.readUInt16LE(p + 30) + buf.readUInt16LE(p + 32);
    if (name.endsWith('/')) continue;
    if (flags & 1) throw new Error(`${name}: encrypted entries are not supported`);
    total += size;
    if (total > maxBytes) throw new Error(`more than ${maxBytes} bytes uncompressed`);
    if (local + 30 > buf.length || buf.readUInt32LE(local) !== LOCAL)
      throw new Error(`${name}: corrupt entry`);
    const start = local + 30 + buf.readUInt16LE(local + 26) + buf.readUInt16LE(local + 28);
    const raw = buf.subarray(start, start + packed);
    if (raw.length !== packed) throw new Error(`${name}: truncated`);
    let data: Buffer;
    if (method === 0) data = Buffer.from(raw);
    else if (method === 8) data = inflateRawSync(raw, { maxOutputLength: Math.max(size, 1) });
    else throw new Error(`${name}: compression method ${method} is not supported`);
    if (data.length !== size || crc32(data) >>> 0 !== crc) throw new Error(`${name}: checksum mismatch`);
    files.set(name, data);
  }
  return files;
}
