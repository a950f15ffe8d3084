/**
 * Re-evaluation after a push to one of three targets, measured after the cold / warm /
 * warm-rerun runs of a variant on the same cache folder: a new commit on `acme/service`'s head
 * branch (a README line: no dependency changes), then `tandem eval` again. Target (issue 9): at
 * least half the configurations come from the result cache (those that do not apply the pushed
 * PR: 4 of 8) and every unchanged prepared state is reused. The pushed head is a changed state:
 * a PR head's prepare is keyed by its whole tree (its scripts are untrusted, so it never shares a
 * folder with another tree), so with `prepare` exactly that one installs again, starting from a
 * copy of its base's output.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { git, write } from '../examples/checkout/generate.ts';
import { type EngineOptions, runOnce, type TandemRun } from './engine-bench.ts';
import { type BenchCase, BRANCH } from './generate-case.ts';
import { sec } from './print-figures.ts';

export interface PushFigures {
  variant: string;
  pushed: string;
  configurations: number;
  /** Configurations taken from the result cache. */
  reused: number;
  /** `prepare` installs the push run made (at most the pushed head's), and the cold run's. */
  preparesRun: number;
  preparesCold: number;
  outcome: string;
  wallS: number;
  warmRerunS: number;
  /** Push → first verdict: the full configuration's progress line (it runs first, issue 21). */
  firstVerdictS: number | null;
  /** The full configuration's own time: the first verdict's goal is this + 5 s. */
  fullConfigurationS: number;
  verdictPass: boolean;
  pass: boolean;
}

/** One commit on the head branch of `repo`, pushed to its bare remote (what the case fetches). */
function pushReadmeLine(c: BenchCase, repo: string): void {
  const target = c.repos.find((r) => r.repo === repo);
  if (!target) throw new Error(`push-rerun: no repository ${repo} in the case`);
  const work = mkdtempSync(path.join(os.tmpdir(), 'tandem-bench-push-'));
  try {
    git(work, 'clone', '--quiet', '--branch', BRANCH, target.remoteDir, '.');
    const readme = path.join(work, 'README.md');
    write(work, { 'README.md': `${readFileSync(readme, 'utf8')}\nA line pushed after the first review.\n` });
    git(work, 'commit', '--quiet', '-am', 'docs: a line after review');
    git(work, 'push', '--quiet', 'origin', `HEAD:refs/heads/${BRANCH}`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

export async function runPushRerun(
  c: BenchCase,
  opts: EngineOptions,
  before: { cold: TandemRun; rerun: TandemRun },
): Promise<PushFigures> {
  const pushed = 'acme/service';
  pushReadmeLine(c, pushed);
  const run = await runOnce(c, opts, 'push');
  const configurations = run.configurations.length;
  // The verdict is known when the full configuration's line is printed (progress is judged by grading).
  const verdictAt = run.verdictMs ?? undefined;
  const full = run.configurations.find((x) => x.id === 'full');
  const fullS = sec(full?.durationMs ?? 0);
  const firstVerdictS = verdictAt === undefined ? null : sec(verdictAt);
  const reused = run.configurations.filter((x) => x.cached).length;
  return {
    variant: c.variant,
    pushed,
    configurations,
    reused,
    preparesRun: run.prepareS.length,
    preparesCold: before.cold.prepareS.length,
    outcome: run.outcome,
    wallS: sec(run.wallMs),
    warmRerunS: sec(before.rerun.wallMs),
    firstVerdictS,
    fullConfigurationS: fullS,
    verdictPass: firstVerdictS !== null && firstVerdictS <= fullS + 5,
    // Only the pushed head's state changed: with `prepare`, it alone may install again.
    pass:
      reused * 2 >= configurations &&
      run.prepareS.length <= (before.cold.prepareS.length > 0 ? 1 : 0) &&
      run.outcome === 'resolved',
  };
}

export function printPushFigures(figs: readonly PushFigures[]): string {
  const lines = figs.map(
    (f) =>
      `[${f.variant}] push to ${f.pushed}: ${f.reused}/${f.configurations} configurations reused, ` +
      `${f.preparesRun} prepare installs (cold: ${f.preparesCold}), ${f.outcome}; ` +
      `${f.wallS.toFixed(1)} s vs warm-rerun ${f.warmRerunS.toFixed(1)} s — ` +
      `target ≥ half reused and no unchanged state prepared again (the pushed head is a new tree): ${f.pass ? 'PASS' : 'FAIL'}\n` +
      `[${f.variant}] push → first verdict ${f.firstVerdictS === null ? '—' : `${f.firstVerdictS.toFixed(1)} s`}, ` +
      `push → complete matrix ${f.wallS.toFixed(1)} s; the full configuration alone ${f.fullConfigurationS.toFixed(1)} s — ` +
      `goal first verdict ≤ that + 5 s: ${f.verdictPass ? 'PASS' : 'FAIL'}`,
  );
  return ['Re-evaluation after a push to one of three targets:', ...lines].join('\n');
}
