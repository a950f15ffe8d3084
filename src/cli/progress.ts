/**
 * Live progress on stderr: a bar on a TTY, otherwise one line per finished configuration.
 * The engine only emits events; this is the CLI's view of them.
 */
import cliProgress from 'cli-progress';
import type { EvaluationEvent } from '../core/evaluation-event.ts';
import { progressLine } from '../core/progress-lines.ts';

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
      // Under a bar only configurations update its last-line text; the rest would break the bar.
      if (e.type === 'configuration-done' && e.attempt === 0) done += 1;
      const text = progressLine(e);
      if (text === undefined) return;
      if (e.type === 'plan') {
        stream.write(`${text}\n`);
        if (tty) {
          bar = new cliProgress.SingleBar(
            { stream, format: '  [{bar}] {value}/{total} configurations  {last}', hideCursor: true },
            cliProgress.Presets.shades_classic,
          );
          bar.start(e.configurations.length, 0, { last: '' });
        }
      } else if (e.type === 'configuration-done') line(text);
      else if (!bar && (e.type === 'prepare-done' || e.type === 'log')) line(text);
    },
    stop() {
      bar?.stop();
    },
  };
}
