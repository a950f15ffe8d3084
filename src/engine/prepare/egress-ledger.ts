/**
 * What one prepare's egress proxy holds and has refused (issue 30): connections open and in
 * all, bytes both ways, and each descriptor it holds taken from the process-wide reserve
 * (egress-reserve.ts). The proxy asks before it keeps a connection or opens an upstream
 * socket and tells when one closes; the counts make the note a failed prepare shows.
 */
import { EventEmitter } from 'node:events';
import type { EgressLimits, EgressRefusal, EgressRefusals } from '../../core/egress-limits.ts';
import type { DescriptorReserve } from './egress-reserve.ts';

/** Emits `released` each time a descriptor goes back (for waiting on it, instead of polling). */
export class EgressLedger extends EventEmitter<{ released: [] }> {
  /** Client connections kept and not yet closed. */
  open = 0;
  /** Client connections kept over the prepare. */
  total = 0;
  /** Bytes both ways over the prepare. */
  bytes = 0;
  /** Descriptors this proxy holds from the reserve. */
  held = 0;
  readonly refusals: EgressRefusals = {};

  constructor(
    readonly limits: EgressLimits,
    private readonly reserve: DescriptorReserve,
  ) {
    super();
  }

  /** Counts one connection refused or cut for `why`. */
  refuse(why: EgressRefusal): void {
    this.refusals[why] = (this.refusals[why] ?? 0) + 1;
  }

  /**
   * A new client connection: undefined when kept (one descriptor taken, to `release` on
   * close), else the bound it would pass (counted as refused).
   */
  admit(): EgressRefusal | undefined {
    const why =
      this.open >= this.limits.connections
        ? 'connections'
        : this.total >= this.limits.total_connections
          ? 'total_connections'
          : this.bytes >= this.limits.bytes
            ? 'bytes'
            : this.hold()
              ? undefined
              : 'descriptors';
    if (why) {
      this.refuse(why);
      return why;
    }
    this.open++;
    this.total++;
    return undefined;
  }

  /** A kept client connection closed: its descriptor goes back. */
  release(): void {
    this.open--;
    this.letGo();
  }

  /** Takes one more descriptor (an upstream socket); false when the reserve is used up. */
  hold(): boolean {
    if (!this.reserve.take()) return false;
    this.held++;
    return true;
  }

  /** Gives back a descriptor taken with `hold`. */
  letGo(): void {
    this.held--;
    this.reserve.give();
    this.emit('released');
  }

  /** Counts `n` bytes; false once the prepare is past its byte limit. */
  meter(n: number): boolean {
    this.bytes += n;
    return this.bytes <= this.limits.bytes;
  }
}
