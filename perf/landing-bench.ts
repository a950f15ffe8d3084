/**
 * The landing bench (issue 28): N linked sets of 3 repositories landed against the GitHub
 * stand-in (real bare git repositories behind it), every 4th with its 2nd landing refused, by
 * the queue's lander (src/github/land-set.ts: the tested commits moved onto the base branches with
 * force:false, producer first, reverted on a refusal) and, in the same run, by the old sequential
 * `/tandem merge` path (src/github/merge-pulls.ts: `PUT …/merge` member by member) as baseline.
 * It prints how many landed SHAs equal the tested commits, how many sets were left half-merged,
 * and the half-landed window p50/p95 (first member in → last member in, or → last revert made).
 * BENCH_ONLY=landing runs only this; BENCH_LANDING_SETS sets N (default 20).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gitOut } from '../src/engine/git/git.ts';
import { type Landing, landTestedSet } from '../src/github/land-set.ts';
import { mergePull } from '../src/github/merge-pulls.ts';
import { refuseRefUpdate } from '../test/support/github-standin/ref-updates.ts';
import { type LandingWorld, landingWorld, openTestedSet } from '../test/support/landing-world.ts';

const REPOS = ['lib', 'api', 'web'];

export interface LandingFigures {
  sets: number;
  refusedInjected: number;
  queue: PathFigures;
  sequential: PathFigures;
}

interface PathFigures {
  landedMembers: number;
  landedEqualTested: number;
  halfMergedLeft: number;
  windowsMs: number[];
}

const refusedAt = (i: number) => i % 4 === 3;

/** Per set: one PR per repository, tested onto the current tips (what the evaluation ran on). */
const openSet = (w: LandingWorld, i: number) =>
  openTestedSet(w, REPOS, `set-${i}`, (name) => ({
    branch: `set-${i}-${name}`,
    files: { [`${name}-${i}.txt`]: `set ${i}\n` },
  }));

/** A set is half-merged when its repositories' trees are neither all before nor all after it. */
async function halfMerged(w: LandingWorld, landings: Landing[], tested: boolean[]): Promise<boolean> {
  const states = await Promise.all(
    landings.map(async (l, k) => {
      const name = l.repo.slice(5);
      const now = await w.tree(name, await w.tip(name));
      if (now === (await w.tree(name, l.expectedTip))) return 'before';
      return tested[k] ? 'after' : 'other';
    }),
  );
  return new Set(states).size > 1 || states.includes('other');
}

async function queuePath(root: string, n: number): Promise<PathFigures> {
  const w = await landingWorld(join(root, 'queue'), REPOS);
  const f: PathFigures = { landedMembers: 0, landedEqualTested: 0, halfMergedLeft: 0, windowsMs: [] };
  try {
    for (let i = 0; i < n; i += 1) {
      const { landings } = await openSet(w, i);
      if (refusedAt(i)) refuseRefUpdate(w.s.state, { nth: 1, repo: 'acme/api', branch: 'main' });
      const out = await landTestedSet(w.gh, landings, { itemId: `set-${i}` });
      if (out.kind === 'interrupted') throw new Error(`GitHub stopped answering: ${String(out.error)}`);
      f.windowsMs.push(out.windowMs);
      if (out.kind === 'landed')
        for (const l of landings) {
          f.landedMembers += 1;
          if ((await w.tip(l.repo.slice(5))) === l.testedSha) f.landedEqualTested += 1;
        }
      if (
        await halfMerged(
          w,
          landings,
          landings.map(() => out.kind === 'landed'),
        )
      )
        f.halfMergedLeft += 1;
    }
  } finally {
    await w.close();
  }
  return f;
}

async function sequentialPath(root: string, n: number): Promise<PathFigures> {
  const w = await landingWorld(join(root, 'sequential'), REPOS);
  const f: PathFigures = { landedMembers: 0, landedEqualTested: 0, halfMergedLeft: 0, windowsMs: [] };
  try {
    for (let i = 0; i < n; i += 1) {
      const { pulls, landings } = await openSet(w, i);
      if (refusedAt(i))
        w.s.failNext({
          status: 405,
          method: 'PUT',
          path: /\/repos\/acme\/api\/pulls\/\d+\/merge$/,
          message: 'Required status check "ci" is failing.',
        });
      let first: number | undefined;
      const merged: boolean[] = [];
      for (const [k, pr] of pulls.entries()) {
        const answer = await mergePull(
          w.gh,
          { owner: 'acme', repo: pr.repo.slice(5), number: pr.number },
          pr.head,
        );
        merged.push(answer.merged);
        if (!answer.merged) break;
        first ??= performance.now();
        f.landedMembers += 1;
        // What landed is GitHub's new merge commit, not the commit the set was tested as.
        if (answer.sha === landings[k]!.testedSha) f.landedEqualTested += 1;
      }
      // The old path stops at a refusal; what merged stays merged until a person acts.
      if (merged.every(Boolean)) f.windowsMs.push(first === undefined ? 0 : performance.now() - first);
      if (await halfMerged(w, landings, merged)) f.halfMergedLeft += 1;
      for (const pr of pulls)
        await gitOut(['branch', '-D', '--quiet', `set-${i}-${pr.repo.slice(5)}`], {
          cwd: w.fixtures.get(pr.repo.slice(5))!.work,
        }).catch(() => '');
    }
  } finally {
    await w.close();
  }
  return f;
}

export async function runLandingBench(
  n = Number(process.env.BENCH_LANDING_SETS ?? 20),
): Promise<LandingFigures> {
  const root = await mkdtemp(join(tmpdir(), 'tandem-landing-bench-'));
  try {
    const queue = await queuePath(root, n);
    const sequential = await sequentialPath(root, n);
    return { sets: n, refusedInjected: [...Array(n).keys()].filter(refusedAt).length, queue, sequential };
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

function quantile(xs: number[], q: number): number {
  if (xs.length === 0) return Number.NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil(q * s.length) - 1)]!;
}

const pct = (a: number, b: number) => (b === 0 ? 'n/a' : `${((100 * a) / b).toFixed(0)}%`);

export function printLandingFigures(f: LandingFigures): void {
  const line = (name: string, p: PathFigures, note: string) =>
    `  ${name}: landed SHAs equal tested commits: ${pct(p.landedEqualTested, p.landedMembers)} ` +
    `(${p.landedEqualTested}/${p.landedMembers}); half-merged left: ${p.halfMergedLeft}; ` +
    `half-landed window p50 ${quantile(p.windowsMs, 0.5).toFixed(1)} ms, p95 ${quantile(p.windowsMs, 0.95).toFixed(1)} ms${note}\n`;
  process.stdout.write(
    `\nLanding ${f.sets} linked sets of 3 repositories against the stand-in, ${f.refusedInjected} with the 2nd landing refused (perf/landing-bench.ts):\n` +
      line('queue (tested commits, force:false, revert on refusal)', f.queue, '') +
      line(
        'baseline sequential /tandem merge (PUT …/merge per member)',
        f.sequential,
        ' (over the sets it finished; a refused set stays half-merged)',
      ),
  );
}

if (import.meta.url === `file://${process.argv[1]}`) printLandingFigures(await runLandingBench());
