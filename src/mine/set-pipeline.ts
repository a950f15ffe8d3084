/**
 * One linked set through the stages every source shares: cap on repositories, each side's change
 * (a conflict between the set's commits screens it out), screening, then the candidate.
 */
import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { DEFAULT_MIN_SCORE } from '../core/link-score.ts';
import type { Suite } from '../core/suite.schema.ts';
import { buildCandidate, type SetDescription } from './candidate.ts';
import type { CouplingLink } from './coupling.ts';
import { type LinkedComponent, type LinkUnit, linkComponents } from './link-graph.ts';
import type { MineOutput } from './mine-output.ts';
import { type ChangeStep, ReplayConflict, type RepoChange, repoChange } from './repo-change.ts';
import { screen } from './screening.ts';

export interface MineSettings {
  maxRepos: number;
  maxFiles: number;
  maxLines: number;
  testGlobs?: readonly string[];
  /** Links scoring below this do not join a set (`--min-score`, core/link-score.ts). */
  minScore?: number;
  suite: (instanceId: string, repos: string[]) => Suite | string;
  /** Scratch repositories for replays live here while a set is processed. */
  scratchRoot: string;
}

export interface SideInput {
  repo: string;
  url: string;
  mirror: string;
  steps: ChangeStep[];
}

export async function processSet(
  sides: readonly SideInput[],
  set: SetDescription,
  changeIds: string[],
  settings: MineSettings,
  output: MineOutput,
): Promise<void> {
  const repos = sides.map((s) => s.repo);
  if (sides.length > settings.maxRepos) {
    output.screened.push({
      changes: changeIds,
      repos,
      reason: {
        code: 'too-many-repositories',
        message: `the set spans ${sides.length} repositories (more than --max-repos ${settings.maxRepos})`,
      },
    });
    return;
  }
  const changes: RepoChange[] = [];
  try {
    for (const side of sides) {
      changes.push(
        await repoChange({
          ...side,
          scratchRoot: settings.scratchRoot,
          ...(settings.testGlobs ? { testGlobs: settings.testGlobs } : {}),
        }),
      );
    }
    const reason = screen(
      changes.map((c) => ({ repo: c.repo, files: c.files })),
      settings,
    );
    if (reason) {
      output.screened.push({ changes: changeIds, repos, reason });
      return;
    }
    output.candidates.push(await buildCandidate(changes, set, settings.suite));
  } catch (e) {
    if (!(e instanceof ReplayConflict)) throw e;
    output.screened.push({
      changes: changeIds,
      repos,
      reason: { code: 'conflict', message: e.message, repo: e.repo },
    });
  } finally {
    for (const c of changes) if (c.headIsReplay) await rm(c.gitDir, { recursive: true, force: true });
  }
}

/**
 * Every linked set of `units` across two or more repositories, handed to `handle` with settings
 * whose scratch folder (under `cacheDir/tmp`) is removed afterwards. Sets within one repository
 * that carry a cue are counted; changes without any link are not sets at all.
 */
export async function forEachLinkedSet(
  units: readonly LinkUnit[],
  opts: {
    windowMs: number;
    cacheDir: string;
    settings: Omit<MineSettings, 'scratchRoot'>;
    coupling?: readonly CouplingLink[];
  },
  output: MineOutput,
  handle: (comp: LinkedComponent, settings: MineSettings) => Promise<void>,
): Promise<void> {
  const scratchRoot = path.join(
    opts.cacheDir,
    'tmp',
    `mine-${process.pid}-${randomBytes(4).toString('hex')}`,
  );
  const settings: MineSettings = { ...opts.settings, scratchRoot };
  const cued = new Set(units.filter((u) => u.cues.length > 0).map((u) => u.id));
  try {
    for (const comp of linkComponents(units, {
      windowMs: opts.windowMs,
      minScore: settings.minScore ?? DEFAULT_MIN_SCORE,
      ...(opts.coupling ? { coupling: opts.coupling } : {}),
    })) {
      if (comp.repos.length >= 2) await handle(comp, settings);
      else if (comp.units.some((u) => cued.has(u))) output.singleRepositorySets++;
    }
  } finally {
    await rm(scratchRoot, { recursive: true, force: true });
  }
}
