/**
 * Matrix modes: which configurations an evaluation runs. The literals live here once; the CLI
 * flag, the Action input, the `/tandem matrix` command, `tandem.yml` and the report all use
 * these schemas. Pure.
 */
import { z } from 'zod';

/** Resolved modes: what actually ran. `full`: all 2^N subsets; `leave-one-out`: N+2. */
export const resolvedMatrixModeSchema = z.enum(['full', 'leave-one-out']);
export type ResolvedMatrixMode = z.infer<typeof resolvedMatrixModeSchema>;

/** Requested modes: `auto` resolves to `full` up to AUTO_FULL_CAP targets, else `leave-one-out`. */
export const matrixModeSchema = z.enum([...resolvedMatrixModeSchema.options, 'auto']);
export type MatrixMode = z.infer<typeof matrixModeSchema>;

/** `auto` runs every subset up to this many targets (16 configurations), else leave-one-out. */
export const AUTO_FULL_CAP = 4;

export function resolveMatrixMode(requested: MatrixMode, targets: number): ResolvedMatrixMode {
  if (requested !== 'auto') return requested;
  return targets <= AUTO_FULL_CAP ? 'full' : 'leave-one-out';
}
