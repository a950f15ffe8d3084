/**
 * The Tandem Action's entry (bundled to dist/index.js): read the inputs, run the same pipeline as
 * the CLI (evaluate, plan or merge), publish outputs, summary, annotations and the report.
 * Failures without a report set `verdict=error` and say whether the input or the machinery failed.
 */
import { InfraError, InputError } from '../core/errors.ts';
import { readInputs } from './inputs.ts';
import { publishFailure } from './outputs.ts';
import { redactText } from './redact.ts';
import { Runner } from './runner.ts';
import { evaluateStep, mergeStep, planStep } from './steps.ts';

const env = process.env;
const runner = new Runner(env);
const controller = new AbortController();
// The runner sends SIGINT, then SIGTERM, when a job is cancelled: stop containers cleanly.
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => controller.abort());

function describe(err: unknown): string {
  if (err instanceof InputError) return `Tandem: bad input, no verdict: ${err.message}`;
  if (err instanceof InfraError) {
    return `Tandem: infrastructure error, not a verdict on the code (${err.kind}): ${err.message}`;
  }
  const e = err as Error;
  return `Tandem: infrastructure error, not a verdict on the code (internal): ${e?.message ?? String(err)}`;
}

try {
  const inputs = readInputs(env);
  const ctx = { runner, env, workspace: env.GITHUB_WORKSPACE ?? process.cwd(), signal: controller.signal };
  if (inputs.mode === 'merge') await mergeStep(inputs, ctx);
  else if (inputs.mode === 'plan') await planStep(inputs, ctx);
  else await evaluateStep(inputs, ctx);
} catch (err) {
  const secrets = runner.input('token') ? [runner.input('token')] : [];
  if (!(err instanceof InputError || err instanceof InfraError)) {
    runner.info(redactText(String((err as Error)?.stack ?? err), secrets));
  }
  publishFailure(runner, redactText(describe(err), secrets));
}
