/**
 * Progress of `tandem mine github` on stderr: a bar (cli-progress) on a terminal, one line per
 * repository otherwise (logs and CI). Never stdout.
 */
import { Presets, SingleBar } from 'cli-progress';

/** A note to stderr: progress and summaries never go to stdout. */
export type Say = (line: string) => void;

export interface MineProgress {
  repos: number;
  reposTotal: number;
  pulls: number;
  stage: string;
}

/** A progress bar on a terminal (cli-progress), plain lines per repository otherwise. */
export function progressBar(say: Say): { update: (p: MineProgress) => void; stop: () => void } {
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
