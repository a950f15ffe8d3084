/**
 * Where mining writes: `candidates.jsonl` (one instance per line) and `screened-out.jsonl` beside
 * it (one screened set per line, with its reason), plus the counts a summary line reports.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { BenchInstanceInput } from '../core/bench-instance.schema.ts';
import type { ScreenReason } from './screening.ts';

export interface ScreenedSet {
  /** The changes of the set: PR URLs or `owner/name@sha`. */
  changes: string[];
  repos: string[];
  reason: ScreenReason;
}

export class MineOutput {
  readonly candidates: BenchInstanceInput[] = [];
  readonly screened: ScreenedSet[] = [];
  /** Sets within one repository: not cross-repository tasks, counted only. */
  singleRepositorySets = 0;

  constructor(
    readonly out: string,
    readonly screenedOut = path.join(path.dirname(out), 'screened-out.jsonl'),
  ) {}

  async write(): Promise<void> {
    const jsonl = (rows: unknown[]) => rows.map((r) => `${JSON.stringify(r)}\n`).join('');
    await mkdir(path.dirname(path.resolve(this.out)), { recursive: true });
    await writeFile(this.out, jsonl(this.candidates));
    await writeFile(this.screenedOut, jsonl(this.screened));
  }

  summary(): string {
    const reasons = new Map<string, number>();
    for (const s of this.screened) reasons.set(s.reason.code, (reasons.get(s.reason.code) ?? 0) + 1);
    const why = [...reasons].map(([k, n]) => `${k} ${n}`).join(', ');
    return (
      `${this.candidates.length} candidate(s) → ${this.out}; ` +
      `${this.screened.length} screened out${why ? ` (${why})` : ''} → ${this.screenedOut}; ` +
      `${this.singleRepositorySets} single-repository set(s) skipped`
    );
  }
}
