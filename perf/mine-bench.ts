/**
 * `tandem mine github` against the local GitHub stand-in with real repositories over HTTP:
 * pull requests scanned per minute and API requests per candidate.
 *
 *   npx tsx perf/mine-bench.ts [repositories=6] [merged PRs per repository=40]
 *
 * Each PR is one commit on `main` of its repository (a rebase merge), its files listed with their
 * patches. Repositories come in pairs (svc0–svc1, svc2–svc3…): every fifth PR of the even one names
 * the PR of the same rank in the odd one with `Depends-On`; and every tenth PR of the even one
 * (the producer) sets its `package.json` version and is tagged and released, and three PRs later
 * the odd one (the consumer) bumps its dependency to that version — linked by no text at all. So
 * the organization holds linked sets of both kinds to package, among single-repository noise.
 * Prints the figures and writes them as JSON beside the generated organization.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chunkPath, diffChunks } from '../src/mine/diff-lines.ts';
import { mineGitHub } from '../src/mine/mine-github.ts';
import { startGitHttpServer } from '../test/support/git-http-server.ts';
import { startGitHubStandIn } from '../test/support/github-standin/index.ts';

const repoCount = Number(process.argv[2] ?? 6);
const perRepo = Number(process.argv[3] ?? 40);
const log = (s: string) => process.stderr.write(`mine-bench: ${s}\n`);
const env = {
  ...process.env,
  GIT_AUTHOR_NAME: 'Bench',
  GIT_AUTHOR_EMAIL: 'bench@example.com',
  GIT_COMMITTER_NAME: 'Bench',
  GIT_COMMITTER_EMAIL: 'bench@example.com',
};
const sh = (cwd: string, ...args: string[]) =>
  execFileSync('git', args, { cwd, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();

interface Pr {
  repo: string;
  rank: number;
  sha: string;
  parent: string;
  title: string;
  body: string;
  files: Array<{
    filename: string;
    status: 'added' | 'modified';
    additions: number;
    deletions: number;
    patch: string;
  }>;
  /** The version this PR released (the producer's tag and release). */
  release?: string;
}

const manifest = (r: number, version: string, dep?: string) =>
  `${JSON.stringify({ name: `@acme/svc${r}`, version, ...(dep ? { dependencies: { [`@acme/svc${r - 1}`]: dep } } : {}) }, null, 2)}\n`;

/** A commit's files as GitHub lists a PR's: each with its hunks as `patch`. */
function filesOf(work: string, parent: string, sha: string): Pr['files'] {
  return diffChunks(sh(work, 'diff', '--no-renames', parent, sha)).map((chunk) => {
    const at = chunk.indexOf('\n@@');
    const patch = at < 0 ? '' : chunk.slice(at + 1);
    const lines = patch.split('\n');
    return {
      filename: chunkPath(chunk),
      status: /^new file/m.test(chunk) ? 'added' : 'modified',
      additions: lines.filter((l) => l.startsWith('+')).length,
      deletions: lines.filter((l) => l.startsWith('-')).length,
      patch,
    };
  });
}

/** Each repository's `package.json` at its tip (the stand-in serves it as the default branch's). */
const gitPackage = new Map<string, string>();

/** Synchronous git, before the HTTP servers start in this process. */
function generate(root: string): Pr[] {
  const prs: Pr[] = [];
  for (let r = 0; r < repoCount; r++) {
    const name = `svc${r}`;
    const work = path.join(root, `${name}-work`);
    mkdirSync(path.join(work, 'src'), { recursive: true });
    sh(root, 'init', '--quiet', '--bare', '-b', 'main', `${name}.git`);
    sh(work, 'init', '--quiet', '-b', 'main');
    writeFileSync(path.join(work, 'src', 'index.ts'), 'export const version = 0;\n');
    const consumer = r % 2 === 1;
    writeFileSync(path.join(work, 'package.json'), manifest(r, '1.0.0', consumer ? '^1.0.0' : undefined));
    sh(work, 'add', '--all');
    sh(work, 'commit', '--quiet', '-m', 'initial');
    for (let k = 1; k <= perRepo; k++) {
      const parent = sh(work, 'rev-parse', 'HEAD');
      writeFileSync(
        path.join(work, 'src', `feature${k}.ts`),
        `export function feature${k}(): number {\n  return ${k};\n}\n`,
      );
      // Pairs (svc0–svc1, svc2–svc3…): chains across every repository would exceed --max-repos.
      const paired = r % 2 === 0 ? r + 1 < repoCount : true;
      const linked = k % 5 === 0 && !consumer && paired;
      const release = !consumer && paired && k % 10 === 0 ? `1.${k}.0` : undefined;
      if (release) writeFileSync(path.join(work, 'package.json'), manifest(r, release));
      // The consumer adopts the release three PRs later, saying nothing about it.
      if (consumer && k % 10 === 3 && k > 3)
        writeFileSync(path.join(work, 'package.json'), manifest(r, '1.0.0', `^1.${k - 3}.0`));
      const title = `Feature ${k} of ${name}`;
      sh(work, 'add', '--all');
      sh(work, 'commit', '--quiet', '-m', title);
      const sha = sh(work, 'rev-parse', 'HEAD');
      prs.push({
        repo: name,
        rank: k,
        sha,
        parent,
        title,
        body: linked ? `Depends-On: acme/svc${r + 1}#${k}` : 'A change of one repository.',
        files: filesOf(work, parent, sha),
        ...(release ? { release } : {}),
      });
    }
    gitPackage.set(name, readFileSync(path.join(work, 'package.json'), 'utf8'));
    sh(work, 'push', '--quiet', path.join(root, `${name}.git`), 'HEAD:refs/heads/main');
  }
  return prs;
}

async function main(): Promise<void> {
  const root = mkdtempSync(path.join(tmpdir(), 'tandem-mine-bench-'));
  try {
    log(`generating ${repoCount} repositories × ${perRepo} merged PRs…`);
    const prs = generate(root);
    const git = await startGitHttpServer(root);
    const gh = await startGitHubStandIn({ tokens: { 'bench-token': 'bench' } });
    try {
      for (let r = 0; r < repoCount; r++)
        gh.addRepo({ owner: 'acme', name: `svc${r}`, cloneUrl: `${git.url}/svc${r}.git` });
      const t0 = Date.parse('2024-03-01');
      for (const p of prs) {
        gh.addPullRequest({
          owner: 'acme',
          repo: p.repo,
          number: p.rank,
          title: p.title,
          body: p.body,
          headRef: `${p.repo}-feature-${p.rank}`,
          headSha: p.sha,
          baseSha: p.parent,
          merged: true,
          mergedAt: new Date(t0 + p.rank * 3_600_000).toISOString(),
          mergeCommitSha: p.sha,
          commits: [{ sha: p.sha, message: p.title, parents: [p.parent] }],
          files: p.files,
        });
        if (p.release) {
          gh.addTag({ owner: 'acme', repo: p.repo, name: `v${p.release}`, sha: p.sha });
          gh.addRelease({
            owner: 'acme',
            repo: p.repo,
            tagName: `v${p.release}`,
            publishedAt: new Date(t0 + p.rank * 3_600_000 + 60_000).toISOString(),
          });
        }
      }
      for (const [name, text] of gitPackage) gh.setFile('acme', name, 'package.json', text);
      log('mining…');
      const start = performance.now();
      let scanDoneAt = 0;
      const result = await mineGitHub({
        org: 'acme',
        since: new Date('2024-01-01'),
        windowMs: 14 * 86_400_000,
        token: 'bench-token',
        apiUrl: gh.url,
        cacheDir: path.join(root, 'cache'),
        out: path.join(root, 'out', 'candidates.jsonl'),
        settings: { maxRepos: 5, maxFiles: 40, maxLines: 1500, suite: () => 'suite.yaml' },
        onProgress: (p) => {
          if (p.stage === 'candidates' && !scanDoneAt) scanDoneAt = performance.now();
        },
      });
      const totalMs = performance.now() - start;
      const candidates = result.output.candidates.length;
      const figures = {
        repositories: repoCount,
        pullsScanned: result.pullsScanned,
        scanSeconds: +((scanDoneAt - start) / 1000).toFixed(2),
        totalSeconds: +(totalMs / 1000).toFixed(2),
        pullsPerMinuteScan: Math.round(result.pullsScanned / ((scanDoneAt - start) / 60_000)),
        pullsPerMinuteTotal: Math.round(result.pullsScanned / (totalMs / 60_000)),
        apiRequests: result.apiRequests,
        candidates,
        screened: result.output.screened.length,
        apiRequestsPerCandidate: candidates ? +(result.apiRequests / candidates).toFixed(1) : null,
        coupledCandidates: result.output.candidates.filter((c) =>
          ((c.metadata as { links?: Array<{ evidence: Array<{ kind: string }> }> }).links ?? []).some((l) =>
            l.evidence.some((e) => e.kind === 'dependency-bump'),
          ),
        ).length,
        apiRequestsPerPull: +(result.apiRequests / result.pullsScanned).toFixed(2),
      };
      writeFileSync(
        path.join(root, '..', `tandem-mine-bench-${Date.now()}.json`),
        JSON.stringify(figures, null, 2),
      );
      process.stdout.write(`${JSON.stringify(figures, null, 2)}\n`);
    } finally {
      await gh.close();
      await git.close();
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

await main();
