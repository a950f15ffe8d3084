/**
 * Live progress on stderr: a bar on a TTY, otherwise one line per finished configuration.
 * The engine only emits events; this is the CLI's view of them.
 */
import cliProgress from 'cli-progress';
import type { EvaluationEvent } from '../engine/evaluate-api.ts';

export interface Progress {
  onEvent: (e: EvaluationEvent) => void;
  stop: () => void;
}

export function createProgress(stream: NodeJS.WriteStream, quiet: boolean): Progress {
  if (quiet) return { onEvent: () => {}, stop: () => {} };
  const tty = stream.isTTY === true;
  let bar: cliProgress.SingleBar | undefined;
  let done = 0;
  const line = (text: string) => {
    if (bar) bar.update(done, { last: text });
    else stream.write(`${text}\n`);
  };
  return {
    onEvent(e) {
      switch (e.type) {
        case 'plan':
          stream.write(`tandem: ${e.configurations.length} configuration(s), matrix ${e.mode}\n`);
          if (tty) {
            bar = new cliProgress.SingleBar(
              { stream, format: '  [{bar}] {value}/{total} configurations  {last}', hideCursor: true },
              cliProgress.Presets.shades_classic,
            );
            bar.start(e.configurations.length, 0, { last: '' });
          }
          break;
        case 'prepare-done':
          if (!bar)
            line(`  prepared ${e.repo} (${e.reused ? 'reused' : `${(e.durationMs / 1000).toFixed(1)}s`})`);
          break;
        case 'configuration-done': {
          if (e.attempt === 0) done += 1;
          const what = e.outcome === 'error' ? 'infrastructure error' : `${e.outcome} ${e.passed}/${e.total}`;
          const rerun = e.attempt > 0 ? ` (rerun ${e.attempt})` : '';
          const cached = e.cached ? ' cached' : ` ${(e.durationMs / 1000).toFixed(1)}s`;
          line(`  ${e.id}${rerun}: ${what}${cached}`);
          break;
        }
        case 'log':
          if (!bar) line(`  ${e.level}: ${e.message}`);
          break;
        default:
          break;
      }
    },
    stop() {
      bar?.stop();
    },
  };
}
