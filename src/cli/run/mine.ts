/**
 * The entry of `tandem mine git|github` for the CLI face: flags checked, settings built, the
 * source run, the outputs written, progress and a summary on stderr. Returns the exit code.
 */
import path from 'node:path';
import { Presets, SingleBar } from 'cli-progress';
import { InputError } from '../../core/errors.ts';
import { hostDefaults } from '../../engine/evaluation-request.ts';
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

/** A note to stderr: progress and summaries never go to stdout. */
export type Say = (line: string) => void;

type CommonFlags = Pick<MineGitFlags, 'suiteTemplate' | 'maxRepos' | 'maxFiles' | 'maxLines' | 'testGlob'>;

async function settingsOf(flags: CommonFlags, say: Say): Promise<Omit<MineSettings, 'scratchRoot'>> {
  let suite: MineSettings['suite'];
  if (flags.suiteTemplate) {
    const template = await loadSuiteTemplate(flags.suiteTemplate);
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
    suite,
  };
}

export async function mineGitCommand(raw: unknown, env: NodeJS.ProcessEnv, say: Say): Promise<number> {
  const flags = parseMineFlags(mineGitOptionsSchema, raw);
  const output = await mineGit({
    repos: flags.repo,
    since: flags.since,
    ...(flags.until ? { until: flags.until } : {}),
    windowMs: flags.window,
    cacheDir: path.resolve(flags.cacheDir ?? hostDefaults(env).cacheDir),
    out: flags.out,
    ...(flags.screenedOut ? { screenedOut: flags.screenedOut } : {}),
    settings: await settingsOf(flags, say),
    onProgress: (done, total, what) => say(`tandem mine: [${done}/${total}] ${what}`),
  });
  say(`tandem mine: ${output.summary()}`);
  return 0;
}

export async function mineGitHubCommand(raw: unknown, env: NodeJS.ProcessEnv, say: Say): Promise<number> {
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
    out: flags.out,
    ...(flags.screenedOut ? { screenedOut: flags.screenedOut } : {}),
    settings: await settingsOf(flags, say),
    onProgress: bar.update,
  });
  bar.stop();
  const { output } = result;
  say(
    `tandem mine: ${result.pullsScanned} pull requests scanned, ${result.apiRequests} API requests` +
      `${result.rateLimits ? `, ${result.rateLimits} rate limits waited out` : ''}`,
  );
  say(`tandem mine: ${output.summary()}`);
  return 0;
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
