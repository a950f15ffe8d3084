/**
 * Pipelining configurations: up to `2 × jobs` are made ready at once (states prepared,
 * workspace assembled, container created), while only `jobs` hold a run slot (a started
 * container). A configuration asks for its slot as soon as it starts getting ready; the gate
 * opens when one is free, and the slot is held until `release`.
 */
type Limit = <T>(fn: () => Promise<T>) => Promise<T>;

export interface HeldSlot {
  /** Resolves when the slot is this configuration's. */
  gate: Promise<void>;
  /** Gives the slot back (or, not yet granted, gives it back as soon as it is). */
  release(): void;
}

export function holdSlot(slots: Limit): HeldSlot {
  let open!: () => void;
  let free!: () => void;
  const gate = new Promise<void>((resolve) => {
    open = resolve;
  });
  const freed = new Promise<void>((resolve) => {
    free = resolve;
  });
  void slots(() => {
    open();
    return freed;
  });
  return { gate, release: () => free() };
}

/** How many configurations may be getting ready or running at once, for `jobs` slots. */
export function readyAhead(jobs: number): number {
  return 2 * Math.max(1, jobs);
}
