/**
 * The entry of `tandem mine git|github` for the CLI face: flags checked, settings built, the
 * source run, the outputs written, progress and a summary on stderr. Returns the exit code.
 */
import { writeFile } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { Presets, SingleBar } from 'cli-progress';
import { z } from 'zod';
import { InputError } from '../../core/errors.ts';
import { engineDefaults, hostDefaults } from '../../engine/evaluation-request.ts';
import { mineGit } from '../../mine/mine-git.ts';
import {
  type MineGitFlags,
  mineGitHubOptionsSchema,
  mineGitOptionsSchema,
  parseMineFlags,
} from '../../mine/mine-options.ts';
import type { MineProgress } from '../../mine/mine-progress.ts';
import type { MineSettings } from '../../mine/set-pipeline.ts';
import { loadSuiteTemplate } from '../../mine/suite-template.ts';
import { engineFlagShape, engineSettings, flagName, parseFlags } from '../eval-options.ts';
import { EXIT } from '../exit-codes.ts';

/** A note to stderr: progress and summaries never go to stdout. */
export type Say = (line: string) => void;

type CommonFlags = Pick<
  MineGitFlags,
  'suiteTemplate' | 'validate' | 'maxRepos' | 'maxFiles' | 'maxLines' | 'testGlob' | 'minScore'
>;

async function settingsOf(flags: CommonFlags, say: Say): Promise<Omit<MineSettings, 'scratchRoot'>> {
  let suite: MineSettings['suite'];
  if (
    flags.validate &&
    flags.suiteTemplate &&
    path.resolve(flags.validate) !== path.resolve(flags.suiteTemplate)
  )
    throw new InputError(
      'mine: --validate names the suite template: give it without --suite-template, or the same file',
    );
  const templateFile = flags.validate ?? flags.suiteTemplate;
  if (templateFile) {
    const template = await loadSuiteTemplate(templateFile);
    suite = (instanceId, repos) => template({ instanceId, repos });
  } else {
    // Without a template the candidates name `suite.yaml` beside them, for the user to write.
    say('tandem mine: no --suite-template: candidates point at suite.yaml beside the output');
    suite = () => 'suite.yaml';
  }
  return {
    maxRepos: flags.maxRepos,
    maxFiles: flags.maxFiles,
    maxLines: flags.maxLines,
    ...(flags.testGlob?.length ? { testGlobs: flags.testGlob } : {}),
    minScore: flags.minScore,
    suite,
  };
}

/** With --validate, mining writes here and `tandem bench validate` writes `--out`. */
function minedFile(flags: { out: string; validate?: string | undefined }): string {
  return flags.validate ? flags.out.replace(/(\.jsonl)?$/, '.mined.jsonl') : flags.out;
}

export async function mineGitCommand(
  raw: unknown,
  env: NodeJS.ProcessEnv,
  say: Say,
  signal: AbortSignal = new AbortController().signal,
): Promise<number> {
  const flags = parseMineFlags(mineGitOptionsSchema, raw);
  const output = await mineGit({
    repos: flags.repo,
    since: flags.since,
    ...(flags.until ? { until: flags.until } : {}),
    windowMs: flags.window,
    cacheDir: path.resolve(flags.cacheDir ?? hostDefaults(env).cacheDir),
    out: minedFile(flags),
    ...(flags.screenedOut ? { screenedOut: flags.screenedOut } : {}),
    settings: await settingsOf(flags, say),
    onProgress: (done, total, what) => say(`tandem mine: [${done}/${total}] ${what}`),
  });
  say(`tandem mine: ${output.summary()}`);
  return flags.validate
    ? screenByExecution(output.out, output.candidates.length, flags, env, say, signal)
    : 0;
}

export async function mineGitHubCommand(
  raw: unknown,
  env: NodeJS.ProcessEnv,
  say: Say,
  signal: AbortSignal = new AbortController().signal,
): Promise<number> {
  const flags = parseMineFlags(mineGitHubOptionsSchema, raw);
  const token = env.GITHUB_TOKEN;
  if (!token) throw new InputError('mine github: set GITHUB_TOKEN to a token that can read the repositories');
  const { mineGitHub } = await import('../../mine/mine-github.ts');
  const bar = progressBar(say);
  const result = await mineGitHub({
    org: flags.org,
    ...(flags.repo ? { repos: flags.repo } : {}),
    since: flags.since,
    ...(flags.until ? { until: flags.until } : {}),
    windowMs: flags.window,
    token,
    ...(flags.apiUrl ? { apiUrl: flags.apiUrl } : {}),
    cacheDir: path.resolve(flags.cacheDir ?? hostDefaults(env).cacheDir),
    out: minedFile(flags),
    ...(flags.screenedOut ? { screenedOut: flags.screenedOut } : {}),
    settings: await settingsOf(flags, say),
    onProgress: bar.update,
  });
  bar.stop();
  const { output } = result;
  say(
    `tandem mine: ${result.pullsScanned} pull requests scanned, ${result.apiRequests} API requests` +
      `${result.rateLimits ? `, ${result.rateLimits} rate limits waited out` : ''}` +
      `${result.reverseLinks ? `, ${result.reverseLinks} found by reverse links` : ''}`,
  );
  say(`tandem mine: ${output.summary()}`);
  return flags.validate
    ? screenByExecution(output.out, output.candidates.length, flags, env, say, signal)
    : 0;
}

/**
 * `--validate`: the mined candidates through `tandem bench validate` (src/bench/, the same run
 * as the command): the valid ones — gold resolved, jointly necessary, F2P found — go to `--out`,
 * the rejected beside it with their reasons. Exit 3 when an infrastructure error left some unjudged.
 */
async function screenByExecution(
  mined: string,
  count: number,
  flags: Pick<MineGitFlags, 'out' | 'cacheDir' | 'jobs' | 'sandbox' | 'validateRuns'>,
  env: NodeJS.ProcessEnv,
  say: Say,
  signal: AbortSignal,
): Promise<number> {
  if (count === 0) {
    await writeFile(flags.out, '');
    say(`tandem mine: no candidate to validate; ${flags.out} is empty`);
    return 0;
  }
  const { validateInstances } = await import('../../bench/validate-instances.ts');
  const engineFlags = parseFlags(z.object(engineFlagShape), {
    ...(flags.cacheDir ? { cacheDir: flags.cacheDir } : {}),
    sandbox: flags.sandbox,
  });
  const engine = await engineDefaults(engineSettings(engineFlags), {
    host: hostDefaults(env),
    label: flagName,
  });
  say(`tandem mine: validating ${count} candidate(s) by running them (${mined})`);
  const result = await validateInstances({
    instances: mined,
    out: flags.out,
    runs: flags.validateRuns,
    strict: false,
    jobs: flags.jobs ?? Math.max(1, Math.min(4, availableParallelism())),
    retries: 2,
    engine: { ...engine, signal },
    onEvent: (e) => {
      if (e.type === 'done') say(`tandem mine: ${e.instanceId}: ${e.verdict}`);
    },
  });
  say(
    `tandem mine: ${result.accepted} valid (jointly necessary) → ${result.outFile}; ` +
      `${result.rejected} rejected → ${result.rejectedFile}`,
  );
  return result.infraErrors > 0 ? EXIT.infra : 0;
}

/** `mine github` progress: a bar (cli-progress) on a terminal, one line per repository otherwise. */
function progressBar(say: Say): { update: (p: MineProgress) => void; stop: () => void } {
  if (!process.stderr.isTTY) {
    let last = -1;
    return {
      update: (p: MineProgress) => {
        if (p.repos === last) return;
        last = p.repos;
        say(
          `tandem mine: [${p.repos}/${p.reposTotal}] repositories, ${p.pulls} pull requests scanned (${p.stage})`,
        );
      },
      stop: () => {},
    };
  }
  const bar = new SingleBar(
    {
      format: 'tandem mine [{bar}] {value}/{total} repositories | {pulls} PRs | {stage}',
      stream: process.stderr,
    },
    Presets.shades_classic,
  );
  let started = false;
  return {
    update: (p: MineProgress) => {
      if (!started) bar.start(p.reposTotal, 0, { pulls: 0, stage: p.stage });
      started = true;
      bar.update(p.repos, { pulls: p.pulls, stage: p.stage });
    },
    stop: () => {
      if (started) bar.stop();
    },
  };
}
