import { describe, expect, it } from 'vitest';
import {
  AUTO_FULL_CAP,
  matrixModeSchema,
  resolvedMatrixModeSchema,
  resolveMatrixMode,
} from '../../src/core/matrix-mode.ts';

describe('matrix modes', () => {
  it('requested modes are the resolved ones plus auto', () => {
    expect(matrixModeSchema.options).toEqual(['full', 'leave-one-out', 'auto']);
    expect(resolvedMatrixModeSchema.options).toEqual(['full', 'leave-one-out']);
    expect(matrixModeSchema.safeParse('huge').success).toBe(false);
  });

  it('auto is full up to the cap, then leave-one-out; explicit modes stay', () => {
    expect(resolveMatrixMode('auto', AUTO_FULL_CAP)).toBe('full');
    expect(resolveMatrixMode('auto', AUTO_FULL_CAP + 1)).toBe('leave-one-out');
    expect(resolveMatrixMode('full', 9)).toBe('full');
    expect(resolveMatrixMode('leave-one-out', 1)).toBe('leave-one-out');
  });
});
