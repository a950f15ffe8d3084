import { Writable } from 'node:stream';

/**
 * Keeps the last `capBytes` bytes of a command's output. Test runs can print megabytes; only
 * the end (where the failure summary usually is) is worth keeping, and memory must stay bounded.
 */
export class OutputTail {
  private chunks: Buffer[] = [];
  private kept = 0;
  private cut = 0;

  constructor(private readonly capBytes: number) {}

  push(chunk: Buffer | string): void {
    const buf = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    if (buf.length === 0) return;
    if (this.capBytes <= 0) {
      this.cut += buf.length;
      return;
    }
    this.chunks.push(buf);
    this.kept += buf.length;
    // Drop whole chunks first, then trim the oldest one, so we never copy more than needed.
    while (this.kept > this.capBytes) {
      const first = this.chunks[0];
      if (!first) break;
      const excess = this.kept - this.capBytes;
      if (first.length <= excess) {
        this.chunks.shift();
        this.kept -= first.length;
        this.cut += first.length;
      } else {
        this.chunks[0] = first.subarray(excess);
        this.kept -= excess;
        this.cut += excess;
      }
    }
  }

  /** Bytes dropped from the front so far. */
  get bytesCut(): number {
    return this.cut;
  }

  toString(): string {
    let body = Buffer.concat(this.chunks);
    if (this.cut > 0) {
      // The cut may land inside a multi-byte character: skip UTF-8 continuation bytes.
      let start = 0;
      while (start < body.length && start < 4 && ((body[start] ?? 0) & 0xc0) === 0x80) start++;
      body = body.subarray(start);
      return `[... ${this.cut} bytes cut]\n${body.toString('utf8')}`;
    }
    return body.toString('utf8');
  }

  /** A Writable that feeds this tail (for stream demultiplexers). */
  writable(): Writable {
    return new Writable({
      write: (chunk: Buffer, _enc, done) => {
        this.push(chunk);
        done();
      },
    });
  }
}
