/**
 * Live progress on stderr: a bar on a TTY, otherwise one line per finished item. `countingBar`
 * is the one bar (`tandem eval` counts configurations, `tandem bench run` predictions); the
 * engine only emits events, and `createProgress` is the CLI's view of them.
 */
import cliProgress from 'cli-progress';
import type { EvaluationEvent } from '../core/evaluation-event.ts';
import { progressLine } from '../core/progress-lines.ts';

export interface Progress {
  onEvent: (e: EvaluationEvent) => void;
  stop: () => void;
}

export interface CountingBar {
  /** Shows the bar (on a TTY) for `total` items. */
  start(total: number): void;
  /** One item finished: the bar moves, or a line is written. */
  tick(last: string): void;
  /** Text that finishes nothing: the bar's last-line text, or a line. */
  note(last: string): void;
  /** A line that stays (a prepare step, a warning): above the bar on a TTY, else a line. */
  log(text: string): void;
  /** Whether a bar is showing (other output would break it). */
  readonly active: boolean;
  stop(): void;
}

export interface BarOptions {
  /** What is counted (`configurations`, `predictions`). */
  unit: string;
  /** Show an ETA (worth it when items take similar time). */
  eta?: boolean;
  /** A finished item's line without a TTY (default: the text alone). */
  line?: (done: number, total: number, last: string) => string;
}

export function countingBar(stream: NodeJS.WriteStream, opts: BarOptions): CountingBar {
  const tty = stream.isTTY === true;
  const line = opts.line ?? ((_d: number, _t: number, last: string) => last);
  let bar: cliProgress.SingleBar | undefined;
  let done = 0;
  let total = 0;
  let lastText = '';
  const draw = () => {
    const eta = opts.eta ? '  ETA {eta_formatted}' : '';
    bar = new cliProgress.SingleBar(
      // A finished bar leaves no line behind: the summary follows it.
      {
        stream,
        format: `  [{bar}] {value}/{total} ${opts.unit}${eta}  {last}`,
        hideCursor: true,
        clearOnComplete: true,
      },
      cliProgress.Presets.shades_classic,
    );
    bar.start(total, done, { last: lastText });
  };
  return {
    start(t) {
      total = t;
      if (tty) draw();
    },
    tick(last) {
      done += 1;
      lastText = last;
      if (bar) bar.update(done, { last });
      else stream.write(`${line(done, total, last)}\n`);
    },
    note(last) {
      lastText = last;
      if (bar) bar.update(done, { last });
      else stream.write(`${last}\n`);
    },
    log(text) {
      if (!bar) {
        stream.write(`${text}\n`);
        return;
      }
      // The bar owns its line: stop it and clear that line, write the text there, draw it again below.
      bar.stop();
      stream.write(`\x1b[1A\r\x1b[2K${text}\n`);
      draw();
    },
    get active() {
      return bar !== undefined;
    },
    stop: () => bar?.stop(),
  };
}

export function createProgress(stream: NodeJS.WriteStream, quiet: boolean): Progress {
  if (quiet) return { onEvent: () => {}, stop: () => {} };
  const bar = countingBar(stream, { unit: 'configurations' });
  return {
    onEvent(e) {
      const text = progressLine(e);
      if (text === undefined) return;
      if (e.type === 'plan') {
        stream.write(`${text}\n`);
        bar.start(e.configurations.length);
      } else if (e.type === 'configuration-done') {
        // A retry finishes no new configuration; it only updates the text.
        if (e.attempt === 0) bar.tick(text);
        else bar.note(text);
      }
      // Prepare steps and warnings stay in sight: above the bar, which is drawn again below.
      else if (e.type === 'prepare-done' || e.type === 'log') bar.log(text);
    },
    stop: () => bar.stop(),
  };
}
