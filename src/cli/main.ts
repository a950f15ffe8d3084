/**
 * `tandem`: evaluate a case, validate a gold change, plan and merge shards.
 * Exit codes: 0 resolved, 1 not resolved, 2 bad input, 3 infrastructure error.
 *
 * This file only wires. Each command registers itself from `commands/<name>.ts` (arguments,
 * options, help; static imports of commander types and other `commands/` files only) and loads
 * its implementation with `await import()` when it runs, so `--help` and `--version` start
 * without the engine, Docker client or zod. Adding a command: one file there, one line here.
 */

import { Command, CommanderError } from 'commander';
import { InfraError, InputError } from '../core/errors.ts';
import { TOOL_VERSION } from '../engine/version.ts';
import { registerAction } from './commands/action.ts';
import { registerBench } from './commands/bench.ts';
import { registerCombine } from './commands/combine.ts';
import { registerConfig } from './commands/config.ts';
import { registerEval } from './commands/eval.ts';
import { PROGRAM_HELP } from './commands/help-text.ts';
import { registerImage } from './commands/image.ts';
import { registerMine } from './commands/mine.ts';
import { registerPlan } from './commands/plan.ts';
import { registerQueue } from './commands/queue.ts';
import { registerValidate } from './commands/validate.ts';
import { registerWorker } from './commands/worker.ts';
import type { CliContext } from './context.ts';
import { EXIT } from './exit-codes.ts';

// `tandem --help | head`: the reader closed the pipe, which is not an error of ours.
process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw err;
});

const controller = new AbortController();
let interrupted = false;
// SIGTERM is what CI, systemd and Kubernetes send: handled like Ctrl-C, or containers outlive us.
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    // The first signal stops cleanly (containers removed); a second one leaves at once.
    if (interrupted) process.exit(EXIT.interrupted);
    interrupted = true;
    process.stderr.write(
      `\ntandem: ${signal === 'SIGINT' ? 'interrupted' : 'terminated'}, removing containers…\n`,
    );
    controller.abort();
  });
}

const program = new Command('tandem')
  .description('Judge pull requests across several repositories as one change')
  .version(TOOL_VERSION)
  .exitOverride()
  // One `tandem:` prefix, and a pointer to the help rather than all of it.
  .configureOutput({ outputError: (text, write) => write(text.replace(/^error: /, 'tandem: ')) })
  .showHelpAfterError('(add --help for the usage of this command)')
  .addHelpText('after', PROGRAM_HELP);
const ctx: CliContext = { signal: controller.signal };

registerBench(program, ctx);
registerEval(program, ctx);
registerValidate(program, ctx);
registerPlan(program);
registerCombine(program);
registerMine(program, ctx);
registerImage(program);
registerConfig(program);
registerAction(program);
registerQueue(program);
registerWorker(program, ctx);

try {
  await program.parseAsync(process.argv);
} catch (err) {
  process.exitCode = await reportError(err);
}

/** Loads what it needs only on failure, so `--help` and `--version` stay light. */
async function reportError(err: unknown): Promise<number> {
  if (err instanceof CommanderError) {
    return err.exitCode === 0 ? 0 : EXIT.badInput;
  }
  const { Interrupted } = await import('./interrupted.ts');
  const { noSuchFile } = await import('../core/file-errors.ts');
  const { errorText } = await import('../core/error-text.ts');
  if (err instanceof InputError) {
    process.stderr.write(`tandem: ${err.message}\n`);
    return EXIT.badInput;
  }
  // An engine error's message names its cause first ("Docker is not reachable at …").
  if (err instanceof InfraError && err.kind === 'engine') {
    process.stderr.write(`tandem: ${err.message}\n`);
    return EXIT.infra;
  }
  if (err instanceof Interrupted) {
    process.stderr.write(`tandem: ${err.message}\n`);
    return EXIT.interrupted;
  }
  // A file the user named that is not there, from any command: said in words, as bad input.
  const code = (err as NodeJS.ErrnoException | null)?.code;
  const file = (err as NodeJS.ErrnoException | null)?.path;
  if ((code === 'ENOENT' || code === 'EISDIR') && file) {
    process.stderr.write(`tandem: ${noSuchFile(file, err)}\n`);
    return EXIT.badInput;
  }
  if (err instanceof InfraError) {
    process.stderr.write(`tandem: infrastructure error (${err.kind}): ${err.message}\n`);
    return err.kind === 'aborted' ? EXIT.interrupted : EXIT.infra;
  }
  process.stderr.write(
    `tandem: internal error: ${err instanceof Error && err.stack ? err.stack : errorText(err)}\n`,
  );
  return EXIT.infra;
}
