/**
 * The Tandem Action's logic: read the settings and inputs, run the same pipeline as the CLI
 * (evaluate, plan or merge), publish outputs, summary, annotations and the report through
 * `@actions/core`. Failures without a report set `verdict=error` and say whether the input or the
 * machinery failed; nothing escapes as a crash.
 *
 * `run()` is exported and not called here: `@github/local-action` imports this file and calls
 * it after loading its `.env` and stubbing the toolkit (`npx @github/local-action run .
 * src/action/main.ts .env`); the bundle's entry, index.ts, calls it on a runner.
 */

import * as core from '@actions/core';
import { context } from '@actions/github';
import { scrubCredentials } from '../core/credentials.ts';
import { errorText } from '../core/error-text.ts';
import { InfraError, InputError } from '../core/errors.ts';
import { INFRA_TITLE } from '../core/infra-wording.ts';
import { readInputs } from './inputs.ts';
import { publishFailure } from './outputs.ts';
import { type ActionSettings, readSettings } from './settings.ts';
import { evaluateStep, mergeStep, planStep } from './steps.ts';

function describe(err: unknown): string {
  if (err instanceof InputError) return `Tandem: bad input, no verdict: ${err.message}`;
  if (err instanceof InfraError) return `${INFRA_TITLE} (${err.kind}): ${err.message}`;
  return `${INFRA_TITLE} (internal): ${errorText(err)}`;
}

/** Cancelling a job sends SIGINT, then SIGTERM: both stop the containers cleanly. */
function abortOnSignals(): { signal: AbortSignal; dispose: () => void } {
  const controller = new AbortController();
  const abort = () => controller.abort();
  const signals = ['SIGINT', 'SIGTERM'] as const;
  for (const s of signals) process.once(s, abort);
  const dispose = () => {
    for (const s of signals) process.off(s, abort);
  };
  return { signal: controller.signal, dispose };
}

export async function run(): Promise<void> {
  const { signal, dispose } = abortOnSignals();
  // Masked before anything can print it, whatever later goes wrong.
  const token = core.getInput('token');
  if (token) core.setSecret(token);
  const secrets = token ? [token] : [];
  let settings: ActionSettings | undefined;
  try {
    settings = readSettings(process.env, context, process.cwd());
    const inputs = readInputs({ input: (name) => core.getInput(name), eventPayload: settings.eventPayload });
    const ctx = { settings, signal };
    if (inputs.mode === 'merge') await mergeStep(inputs, ctx);
    else if (inputs.mode === 'plan') await planStep(inputs, ctx);
    else await evaluateStep(inputs, ctx);
  } catch (err) {
    if (!(err instanceof InputError || err instanceof InfraError)) {
      core.info(scrubCredentials(err instanceof Error && err.stack ? err.stack : errorText(err), secrets));
    }
    const message = scrubCredentials(describe(err), secrets);
    await publishFailure(message, settings?.hasSummaryFile ?? false).catch((e: unknown) => {
      // The runner's files are gone (a broken runner): the failure still reaches the log.
      core.setFailed(`${message} (the step's outputs could not be written: ${errorText(e)})`);
    });
  } finally {
    dispose();
  }
}
