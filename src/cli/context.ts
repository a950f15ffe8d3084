/** What main.ts hands every command's registration: shared state the actions need at run time. */
export interface CliContext {
  /** Aborted by Ctrl-C: a running evaluation stops cleanly and removes its containers. */
  readonly signal: AbortSignal;
}
