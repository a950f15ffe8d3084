import { workspaceName } from './case.schema.ts';
import { type MatrixMode, type ResolvedMatrixMode, resolveMatrixMode } from './matrix-mode.ts';

export type ConfigurationRole = 'base' | 'partial' | 'full';

export interface PlannedConfiguration {
  /** `base`, `full`, or the applied targets' short names joined with `+`. */
  id: string;
  /** Targets at head, as the case names them (`owner/name`), in case order. */
  applied: string[];
  role: ConfigurationRole;
}

export interface MatrixPlan {
  requested: MatrixMode;
  mode: ResolvedMatrixMode;
  targets: string[];
  configurations: PlannedConfiguration[];
}

export function configurationId(applied: readonly string[], targets: readonly string[]): string {
  if (applied.length === 0) return 'base';
  if (applied.length === targets.length) return 'full';
  return applied.map(workspaceName).join('+');
}

function configuration(applied: string[], targets: readonly string[]): PlannedConfiguration {
  const role: ConfigurationRole =
    applied.length === targets.length ? 'full' : applied.length === 0 ? 'base' : 'partial';
  return { id: configurationId(applied, targets), applied, role };
}

/**
 * The configurations to run, all-base first and full last (the base run classifies tests, and
 * a reader scans the table top to bottom). `full`: every subset, smaller subsets first.
 * `leave-one-out`: base, full minus each target in case order, full.
 */
export function planMatrix(targets: readonly string[], requested: MatrixMode): MatrixPlan {
  if (targets.length === 0) throw new Error('a matrix needs at least one target');
  if (new Set(targets).size !== targets.length) throw new Error('targets must be distinct');
  const mode = resolveMatrixMode(requested, targets.length);
  const subsets: string[][] = [];
  if (mode === 'full') {
    const n = targets.length;
    const masks = Array.from({ length: 2 ** n }, (_, m) => m);
    masks.sort((a, b) => popcount(a) - popcount(b) || a - b);
    for (const m of masks) subsets.push(targets.filter((_, i) => (m >> i) & 1));
  } else {
    subsets.push([]);
    if (targets.length > 1) for (const t of targets) subsets.push(targets.filter((x) => x !== t));
    subsets.push([...targets]);
  }
  return {
    requested,
    mode,
    targets: [...targets],
    configurations: subsets.map((s) => configuration(s, targets)),
  };
}

function popcount(m: number): number {
  let c = 0;
  for (let x = m; x; x >>= 1) c += x & 1;
  return c;
}

/** The configuration with every target but `target` applied. */
export function withoutTarget(plan: MatrixPlan, target: string): PlannedConfiguration | undefined {
  const want = plan.targets.filter((t) => t !== target);
  return plan.configurations.find(
    (c) => c.applied.length === want.length && want.every((t) => c.applied.includes(t)),
  );
}
