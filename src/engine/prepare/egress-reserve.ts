/**
 * The share of this process's file descriptors that every prepare egress proxy together may
 * hold (issue 30). The proxies' sockets are counted apart from the engine's own, so however
 * many connections prepares open, Tandem keeps three quarters of its descriptors for Docker,
 * git and the file system: a PR can fail its own prepare, never the evaluator's machinery.
 */
import { readFileSync } from 'node:fs';

/** The ceiling even on a host with a very high limit: no prepare needs more sockets. */
const MOST = 4096;
/** When the soft limit cannot be read (not Linux): a quarter of the common 1024. */
const FALLBACK = 256;

/** min(4096, soft RLIMIT_NOFILE / 4) from /proc/self/limits' text, or the fallback. */
export function descriptorBudget(limitsText: string | undefined): number {
  const m = /^Max open files\s+(\d+|unlimited)\s/m.exec(limitsText ?? '');
  if (!m) return FALLBACK;
  if (m[1] === 'unlimited') return MOST;
  return Math.max(1, Math.min(MOST, Math.floor(Number(m[1]) / 4)));
}

function readLimits(): string | undefined {
  try {
    return readFileSync('/proc/self/limits', 'utf8');
  } catch {
    return undefined;
  }
}

/** A count of descriptors taken against a fixed budget. */
export class DescriptorReserve {
  private held = 0;
  constructor(readonly budget: number) {}

  /** Takes one descriptor; false (nothing taken) when the budget is used up. */
  take(): boolean {
    if (this.held >= this.budget) return false;
    this.held++;
    return true;
  }

  give(): void {
    if (this.held > 0) this.held--;
  }

  get inUse(): number {
    return this.held;
  }
}

let shared: DescriptorReserve | undefined;

/** The one reserve of this process, sized from its limit when first asked. */
export function processReserve(): DescriptorReserve {
  shared ??= new DescriptorReserve(descriptorBudget(readLimits()));
  return shared;
}
